// Where a chain starts: both engines (HTTP follower and browser) accept only absolute http(s) URLs, and answer
// anything else with the same one-hop unreachable trace.
import type { ChainTrace, Hop } from '../types.js';

export function parseStart(url: string): URL | null {
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : null;
  } catch {
    return null;
  }
}

/** A chain that never started: one hop with no response, ended `unreachable` with `error`. */
export function unreachableStart(url: string, error: string): ChainTrace {
  const hop: Hop = {
    url,
    status: null,
    location: null,
    kind: 'http',
    timeMs: 0,
    network: null,
    paramsAdded: [],
    paramsRemoved: [],
    cookies: [],
    error,
  };
  return { hops: [hop], end: { reason: 'unreachable', hop: 0, error }, landing: null, cookies: [] };
}

export function invalidStart(url: string): ChainTrace {
  return unreachableStart(url, 'invalid URL: only absolute http:// and https:// URLs can be followed');
}
