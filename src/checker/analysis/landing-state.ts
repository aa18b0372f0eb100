// How far the chain got, decided once so every finding applies the same rules about what counts as evidence.
import type { ChainTrace, Hop, NetworkDefinition } from '../types.js';

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
  /** The last hop's network documents this status as refusing the link (errorStatus, never botWall). */
  refusal: { network: string; meaning: string } | null;
  /** The contract's "landing page reached": 2xx, not a bot wall, and truly the end of the chain. */
  reached: boolean;
  /**
   * The final URL is the merchant's landing URL, so URL-only findings (click id stripped, homepage fallback,
   * parameters lost) stand: the page was reached, or bot protection on a non-tracking hop stopped us at the
   * merchant's door (the redirects before it answered, so what they did to the URL is known).
   */
  urlEvidence: boolean;
}

/**
 * `lastTracker`: the catalogue entry of the last hop, if any. A status it documents as a refusal is its answer,
 * not bot protection, whatever the page looks like.
 */
export function readLandingState(trace: ChainTrace, lastHopIsTracker: boolean, lastTracker: NetworkDefinition | null = null): LandingState {
  const lastIndex = trace.hops.length - 1;
  const last = trace.hops[lastIndex];
  if (last === undefined) throw new Error('a chain trace always has at least one hop');
  const status = last.status;
  const landed = trace.end.reason === 'landed' && status !== null;
  const documented = landed ? lastTracker?.refusals?.find((r) => r.status === status) : undefined;
  const refusal = documented && lastTracker ? { network: lastTracker.name, meaning: documented.meaning } : null;
  const botWall = landed && refusal === null && (trace.landing?.botWall ?? false);
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
    refusal,
    reached,
    urlEvidence: reached || (botWall && !lastHopIsTracker),
  };
}
