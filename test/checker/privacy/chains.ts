// Builds PrivacyInput chains the way the engine records them: each hop's network comes from the real catalogue
// (detectNetwork), and the verdict follows the last network, else the last aggregator (CONTRACT section 3).
import { detectNetwork, getNetwork, toNetworkRef } from '../../../src/checker/networks/detect.js';
import {
  PRIVACY_AGENT_IDS,
  type PrivacyAgentId,
  type PrivacyCookie,
  type PrivacyEntry,
  type PrivacyInput,
} from '../../../src/checker/privacy/index.js';
import type { NetworkRef } from '../../../src/checker/types.js';

export interface ChainOptions {
  cookies?: PrivacyCookie[];
  /** Override the detected network of some hops (brand vanity domains need the whole chain to detect). */
  networks?: Record<number, NetworkRef | null>;
}

export function chainOf(urls: string[], options: ChainOptions = {}): PrivacyInput {
  const hops = urls.map((url, index) => {
    const def = detectNetwork(url);
    const network = index in (options.networks ?? {}) ? (options.networks?.[index] ?? null) : def === null ? null : toNetworkRef(def);
    return { url, status: index === urls.length - 1 ? 200 : 302, kind: 'http' as const, network };
  });
  const refs = hops.map((hop) => hop.network).filter((ref): ref is NetworkRef => ref !== null);
  const target = refs.filter((r) => r.role === 'network').at(-1) ?? refs.filter((r) => r.role === 'aggregator').at(-1) ?? null;
  const def = target === null ? undefined : getNetwork(target.id);
  return {
    hops,
    networkId: target?.id ?? null,
    clickIdParams: def?.clickIdParams ?? [],
    landingUrl: urls.at(-1) ?? null,
    cookies: options.cookies ?? [],
    storefront: (def?.requiredParams ?? []).length > 0,
    cookieNames: def?.cookieNames ?? [],
  };
}

export function cookie(name: string, expiryDays: number, setBy: PrivacyCookie['setBy'], setByHop = 1): PrivacyCookie {
  return {
    name,
    domain: 'example.test',
    path: '/',
    expiresAt: null,
    expiryDays,
    secure: true,
    httpOnly: setBy === 'header',
    sameSite: 'lax',
    firstParty: true,
    setByHop,
    setBy,
  };
}

/** `[clickIdSurvives, trackerVisited]` per agent; agents not named are expected to be `[true, true]`. */
export function survival(entries: PrivacyEntry[]): Record<PrivacyAgentId, [boolean, boolean]> {
  return Object.fromEntries(entries.map((e) => [e.agent, [e.clickIdSurvives, e.trackerVisited]])) as Record<
    PrivacyAgentId,
    [boolean, boolean]
  >;
}

export function expected(changes: Partial<Record<PrivacyAgentId, [boolean, boolean]>>): Record<PrivacyAgentId, [boolean, boolean]> {
  return Object.fromEntries(PRIVACY_AGENT_IDS.map((id) => [id, changes[id] ?? [true, true]])) as Record<PrivacyAgentId, [boolean, boolean]>;
}

export function strippedBy(entries: PrivacyEntry[], agent: PrivacyAgentId): string[] {
  return entries.find((e) => e.agent === agent)?.strippedParameters ?? [];
}
