// A trace from either engine → the catalogue's network per hop → the verdict. Shared by the HTTP path, the
// browser path and the consent scenarios so all three read a chain the same way.
import { analyzeChain } from '../analysis/analyze.js';
import { findAttributionTarget, resolveHopTrackers, type AttributionTarget } from '../analysis/attribution.js';
import { detectChainNetworks, toNetworkRef } from '../networks/detect.js';
import type { ChainTrace, CheckMode, CheckResult, NetworkDefinition } from '../types.js';

function hopNetworksOf(trace: ChainTrace): (NetworkDefinition | null)[] {
  return detectChainNetworks(trace.hops);
}

export function analyzeTrace(submittedUrl: string, trace: ChainTrace, mode: CheckMode): CheckResult {
  const hopNetworks = hopNetworksOf(trace);
  const hops = trace.hops.map((hop, i) => {
    const def = hopNetworks[i];
    return { ...hop, network: def ? toNetworkRef(def) : null };
  });
  return analyzeChain({ submittedUrl, trace: { ...trace, hops }, hopNetworks, mode });
}

/** Whose attribution the verdict checks (the same choice analyzeChain makes), with its catalogue entry. */
export function findTraceTarget(trace: ChainTrace): AttributionTarget | null {
  return findAttributionTarget(resolveHopTrackers(trace, hopNetworksOf(trace)));
}

/** The follower landed on a page that navigates on by script it could not read: the browser must finish it. */
export function needsBrowser(trace: ChainTrace): boolean {
  return trace.end.reason === 'landed' && trace.landing !== null && !trace.landing.botWall && trace.landing.scriptNavigation;
}
