// Wire-level helpers for the egress proxy: which headers a proxy must not pass on, CONNECT authorities,
// and the words for an upstream failure.
import net from 'node:net';
import { describeRequestError } from '../net/http-client.js';

/** Marks a response the proxy wrote itself (a refusal or an upstream failure), never one from the site. */
export const REFUSED_HEADER = 'x-trackcheck-egress';

// RFC 9110 section 7.6.1 hop-by-hop fields, plus the proxy-only ones Chromium adds.
const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  REFUSED_HEADER,
]);

/**
 * Drops hop-by-hop fields (and any field the Connection header names) from raw headers
 * (`[name, value, name, value, …]`, the shape of `IncomingMessage.rawHeaders`), keeping order and case.
 */
export function filterRawHeaders(raw: readonly string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase();
    if (name === 'connection' || name === 'proxy-connection') {
      for (const token of (raw[i + 1] ?? '').split(',')) named.add(token.trim().toLowerCase());
    }
  }
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower)) continue;
    out.push(name, raw[i + 1] ?? '');
  }
  return out;
}

/** `host:port` or `[v6]:port` of a CONNECT request; null when malformed or without a valid port. */
export function parseAuthority(text: string): { host: string; port: number } | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s/@]+):(\d{1,5})$/.exec(text.trim());
  if (match === null) return null;
  const host = match[1] ?? '';
  const port = Number(match[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return null;
  if (host.startsWith('[') && net.isIPv6(host.slice(1, -1)) === false) return null;
  return { host, port };
}

/** The follower's wording for an upstream failure ("connection refused", "connection timed out"…). */
export function describeUpstreamError(err: unknown): string {
  if (err instanceof Error && err.message === 'timed out') return 'connection timed out';
  return describeRequestError(err);
}
