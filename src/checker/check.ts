// The engine's one entry point: follow the chain, recognise networks, analyse. The API, the worker and the
// `trackcheck check` CLI all call runCheck; it knows nothing of users, keys or databases.
import { analyzeChain } from './analyze.js';
import { followChain, type ChainOptions } from './chain.js';
import { detectNetwork, toNetworkRef } from './networks/detect.js';
import type { CheckResult } from './types.js';

export type CheckType = 'link' | 'cmp';

export interface CheckOptions extends ChainOptions {
  checkType?: CheckType;
}

/** Why the checker itself could not run (the check ends `failed`, not with a verdict). */
export class CheckerUnavailable extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CheckerUnavailable';
  }
}

export async function runCheck(url: string, options: CheckOptions = {}): Promise<CheckResult> {
  if ((options.checkType ?? 'link') === 'cmp') {
    throw new CheckerUnavailable(
      'browser_unavailable',
      'Consent-banner (cmp) checks need the browser engine, which this service does not run yet. Run a link check instead.',
    );
  }
  const trace = await followChain(url, options);
  const hopNetworks = trace.hops.map((hop) => detectNetwork(hop.url));
  const hops = trace.hops.map((hop, i) => {
    const def = hopNetworks[i];
    return { ...hop, network: def ? toNetworkRef(def) : null };
  });
  return analyzeChain({ submittedUrl: url, trace: { ...trace, hops }, hopNetworks, mode: 'http' });
}
