// Chromium's net::ERR_* codes in the follower's words, so a hop reads the same in either mode.

const MESSAGES: Record<string, string> = {
  ERR_CONNECTION_REFUSED: 'connection refused',
  ERR_CONNECTION_RESET: 'connection reset',
  ERR_CONNECTION_CLOSED: 'connection closed before a complete response',
  ERR_EMPTY_RESPONSE: 'connection closed before a complete response',
  ERR_CONNECTION_TIMED_OUT: 'connection timed out',
  ERR_TIMED_OUT: 'timed out',
  ERR_ADDRESS_UNREACHABLE: 'host unreachable',
  ERR_INTERNET_DISCONNECTED: 'network unreachable',
  ERR_INVALID_RESPONSE: 'invalid HTTP response',
  ERR_INVALID_HTTP_RESPONSE: 'invalid HTTP response',
  ERR_RESPONSE_HEADERS_TOO_BIG: 'response headers too large',
  ERR_UNSAFE_PORT: 'the browser refuses this port',
  ERR_UNSAFE_REDIRECT: 'redirect to an unsupported scheme',
  ERR_INVALID_REDIRECT: 'invalid Location header',
  ERR_SSL_PROTOCOL_ERROR: 'TLS error: handshake failed',
  ERR_SSL_VERSION_OR_CIPHER_MISMATCH: 'TLS error: no common protocol version or cipher',
};

/** "net::ERR_CERT_DATE_INVALID" → "TLS error: certificate expired or not yet valid (ERR_CERT_DATE_INVALID)". */
export function describeNetError(errorText: string, url: string): string {
  const code = /ERR_[A-Z0-9_]+/.exec(errorText)?.[0];
  if (code === undefined) return errorText;
  if (code === 'ERR_NAME_NOT_RESOLVED') {
    let host = url;
    try {
      host = new URL(url).hostname;
    } catch {
      // keep the URL
    }
    return `DNS lookup failed for ${host}`;
  }
  if (code === 'ERR_CERT_DATE_INVALID') return `TLS error: certificate expired or not yet valid (${code})`;
  if (code === 'ERR_CERT_COMMON_NAME_INVALID') return `TLS error: certificate does not match the host name (${code})`;
  if (code === 'ERR_CERT_AUTHORITY_INVALID') return `TLS error: certificate not issued by a trusted authority (${code})`;
  if (code.startsWith('ERR_CERT_') || code.startsWith('ERR_SSL_')) return MESSAGES[code] ?? `TLS error: certificate rejected (${code})`;
  return MESSAGES[code] ?? `the browser could not load the page (${code})`;
}
