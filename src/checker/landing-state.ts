// How far the chain got, decided once so every finding applies the same rules about what counts as evidence.
import type { ChainTrace, Hop } from './types.js';

export interface LandingState {
  lastIndex: number;
  last: Hop;
  /** The follower stopped because it arrived somewhere (and got a response), not on a loop, limit or failure. */
  landed: boolean;
  status: number | null;
  botWall: boolean;
  /** The page navigates by script the HTTP follower could not resolve: the real landing page is further on. */
  scriptNavigation: boolean;
  /** Landed on 4xx/5xx that is not bot protection. */
  errorStatus: boolean;
  /** The contract's "landing page reached": 2xx, not a bot wall, and truly the end of the chain. */
  reached: boolean;
  /**
   * The final URL is the merchant's landing URL, so URL-only findings (click id stripped, homepage fallback,
   * parameters lost) stand: the page was reached, or bot protection on a non-tracking hop stopped us at the
   * merchant's door (the redirects before it answered, so what they did to the URL is known).
   */
  urlEvidence: boolean;
}

export function readLandingState(trace: ChainTrace, lastHopIsTracker: boolean): LandingState {
  const lastIndex = trace.hops.length - 1;
  const last = trace.hops[lastIndex];
  if (last === undefined) throw new Error('a chain trace always has at least one hop');
  const status = last.status;
  const landed = trace.end.reason === 'landed' && status !== null;
  const botWall = landed && (trace.landing?.botWall ?? false);
  const scriptNavigation = landed && !botWall && (trace.landing?.scriptNavigation ?? false);
  const is2xx = status !== null && status >= 200 && status < 300;
  const errorStatus = landed && !botWall && status !== null && status >= 400;
  const reached = landed && is2xx && !botWall && !scriptNavigation;
  return {
    lastIndex,
    last,
    landed,
    status,
    botWall,
    scriptNavigation,
    errorStatus,
    reached,
    urlEvidence: reached || (botWall && !lastHopIsTracker),
  };
}
