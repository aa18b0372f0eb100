// Runs in every document of a check's context before the page's own scripts (an init script): removes
// WebRTC, whose UDP (STUN/TURN) would leave Chromium around the egress proxy (CONTRACT.md section 6). The
// Chromium switch --force-webrtc-ip-handling-policy has no effect in the Chromium this project drives, and
// Playwright's `launch` leaves no way to set the profile preference, so the API itself goes. Frames created by
// the page (about:blank, srcdoc, data:, blob:, popups) get this script too (test/checker/browser/webrtc.test.ts).
const WEBRTC_GLOBALS = [
  'RTCPeerConnection',
  'webkitRTCPeerConnection',
  'RTCDataChannel',
  'RTCIceCandidate',
  'RTCIceTransport',
  'RTCDtlsTransport',
  'RTCSctpTransport',
  'RTCSessionDescription',
  'RTCRtpSender',
  'RTCRtpReceiver',
  'RTCRtpTransceiver',
  'RTCCertificate',
  'RTCPeerConnectionIceEvent',
  'RTCEncodedAudioFrame',
  'RTCEncodedVideoFrame',
];

export default function disableWebRtc(): void {
  const scope = globalThis as unknown as Record<string, unknown>;
  for (const name of WEBRTC_GLOBALS) {
    try {
      delete scope[name];
    } catch {
      // not configurable here: nothing to remove
    }
  }
}
