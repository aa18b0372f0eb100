// WebRTC never leaves Chromium (issue 13, point 3): a page's RTCPeerConnection would send STUN and TURN over UDP
// straight to any address, around the egress proxy. UDP listeners on 127.0.0.1 and [::1] count every packet while
// pages try it directly and through every way to a fresh window object (new frames, popups, srcdoc, data:, blob:,
// document.write). A bare Chromium on the same page is the control: it does send, so the listener would notice.
import dgram from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserPool } from '../../../src/checker/browser/pool.js';
import { runBrowserLinkCheck } from '../../../src/checker/browser/browser-check.js';
import { startAffiliateWeb, type AffiliateWeb } from '../../fixtures/affiliate-web.js';
import { CHROMIUM, createSimulatorPool, SKIP_REASON } from './browser-helpers.js';

interface UdpCounter {
  port: number;
  hits(): number;
  close(): void;
}

async function listen(type: 'udp4' | 'udp6', address: string, port = 0): Promise<UdpCounter> {
  const socket = dgram.createSocket(type);
  let hits = 0;
  socket.on('message', () => (hits += 1));
  await new Promise<void>((resolve) => socket.bind(port, address, resolve));
  return { port: socket.address().port, hits: () => hits, close: () => socket.close() };
}

function attackPage(port: number): Record<string, string> {
  const go = `async function go(PC) { if (!PC) return; const pc = new PC({ iceServers: [
    { urls: ['stun:127.0.0.1:${port}', 'stun:[::1]:${port}'] },
    { urls: ['turn:127.0.0.1:${port}?transport=udp', 'turn:[::1]:${port}?transport=udp'], username: 'u', credential: 'p' }] });
    pc.createDataChannel('x'); await pc.setLocalDescription(await pc.createOffer()); }`;
  const inFrame = (how: string) => `<body><script>${go}; window.go = go; ${how}</script><p>Shop</p></body>`;
  return {
    direct: inFrame('go(window.RTCPeerConnection || window.webkitRTCPeerConnection);'),
    iframe: inFrame("const f = document.createElement('iframe'); document.body.appendChild(f); go(f.contentWindow.RTCPeerConnection);"),
    popup: inFrame("const w = window.open(''); go(w && w.RTCPeerConnection);"),
    srcdoc: inFrame(
      "const f = document.createElement('iframe'); f.srcdoc = '<script>parent.go(window.RTCPeerConnection)<\\/script>'; document.body.appendChild(f);",
    ),
    write: inFrame(
      "const f = document.createElement('iframe'); document.body.appendChild(f); f.contentDocument.write('<p>x</p>'); go(f.contentWindow.RTCPeerConnection);",
    ),
    data: inFrame(
      `const f = document.createElement('iframe'); f.src = 'data:text/html,' + encodeURIComponent('<script>' + ${JSON.stringify(go)} + '; go(window.RTCPeerConnection)<\\/script>'); document.body.appendChild(f);`,
    ),
    blob: inFrame(
      `const f = document.createElement('iframe'); f.src = URL.createObjectURL(new Blob(['<script>' + ${JSON.stringify(go)} + '; go(window.RTCPeerConnection)<\\/script>'], { type: 'text/html' })); document.body.appendChild(f);`,
    ),
  };
}

describe.skipIf(CHROMIUM === null)(`WebRTC off in every context${CHROMIUM === null ? ` (${SKIP_REASON})` : ''}`, () => {
  let web: AffiliateWeb;
  let pool: BrowserPool;
  let v4: UdpCounter;
  let v6: UdpCounter;
  let pages: Record<string, string>;

  beforeAll(async () => {
    v4 = await listen('udp4', '127.0.0.1');
    v6 = await listen('udp6', '::1', v4.port).catch(() => listen('udp6', '::1'));
    pages = attackPage(v4.port);
    web = await startAffiliateWeb();
    for (const [name, html] of Object.entries(pages)) web.page('www.rtc-shop.example', `/${name}`, html);
    pool = await createSimulatorPool(web, { concurrency: 2 });
  });
  afterAll(async () => {
    await pool?.close();
    await web?.close();
    v4?.close();
    v6?.close();
  });

  it('the control: a bare Chromium sends STUN/TURN to the listener from the same page', async () => {
    const profile = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-rtc-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM as string,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.setContent(pages['direct'] as string);
      await expect.poll(() => v4.hits() + v6.hits(), { timeout: 5_000 }).toBeGreaterThan(0);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  it.each(['direct', 'iframe', 'popup', 'srcdoc', 'write', 'data', 'blob'])('%s: no UDP packet leaves a check', async (name) => {
    await new Promise((resolve) => setTimeout(resolve, 300)); // the control's late packets
    const before = v4.hits() + v6.hits();
    const result = await runBrowserLinkCheck(pool, web.url('www.rtc-shop.example', `/${name}`));
    expect(result.finalStatus).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // ICE gathering sends within milliseconds
    expect(v4.hits() + v6.hits() - before).toBe(0);
  });
});
