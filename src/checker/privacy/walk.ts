// Replays a recorded chain as one agent would make it. The recorded hops are what a default browser got; the
// agent differs in two ways: it never requests a skipped hop (jumping to the destination in its parameter), and
// it removes parameters from the URLs it requests. What a hop's server would answer to a different URL is not
// known, so we assume servers pass parameters through unchanged: a parameter the agent removed, or that a skipped
// hop would have added, is taken out of the later recorded URLs that still carry the same value.
import { parseUrl } from '../analysis/url-facts.js';
import { findSkip, sameSite, stripUrl, type Removal } from './match.js';
import type { PrivacyAgent, PrivacyHop } from './types.js';

export interface AgentStep {
  /** The URL the agent requests. */
  url: string;
  /** The recorded hop this request stands for, null for a skip destination no recorded hop matches. */
  hop: number | null;
  /** Parameters the agent removed from this request. */
  removed: Removal[];
}

export interface AgentWalk {
  steps: AgentStep[];
  /** Recorded hops the agent never requested because a skip rule matched them. */
  skippedHops: number[];
}

/** name → values that must not reappear on later recorded URLs. */
type Lost = Map<string, Set<string>>;

function addLost(lost: Lost, name: string, value: string): void {
  const values = lost.get(name) ?? new Set<string>();
  values.add(value);
  lost.set(name, values);
}

function withoutLost(raw: string, lost: Lost): string {
  const url = parseUrl(raw);
  if (url === null || lost.size === 0) return raw;
  let changed = false;
  for (const [name, values] of lost) {
    for (const value of url.searchParams.getAll(name)) {
      if (!values.has(value)) continue;
      const others = url.searchParams.getAll(name).filter((v) => v !== value);
      url.searchParams.delete(name);
      for (const other of others) url.searchParams.append(name, other);
      changed = true;
    }
  }
  return changed ? url.href : raw;
}

const samePage = (a: URL, b: URL): boolean => a.hostname.toLowerCase() === b.hostname.toLowerCase() && a.pathname === b.pathname;

/**
 * The recorded hop after `from` that a skip destination stands for (same host and path): the agent's request
 * for it is the destination itself, which lacks whatever the skipped hops would have added.
 */
function matchDestination(hops: readonly PrivacyHop[], from: number, destination: string, lost: Lost): number | null {
  const target = parseUrl(destination);
  if (target === null) return null;
  for (let index = from + 1; index < hops.length; index += 1) {
    const recorded = parseUrl(hops[index]?.url ?? '');
    if (recorded === null || !samePage(recorded, target)) continue;
    recorded.searchParams.forEach((value, name) => {
      if (!target.searchParams.getAll(name).includes(value)) addLost(lost, name, value);
    });
    return index;
  }
  return null;
}

export function walkChain(agent: PrivacyAgent, hops: readonly PrivacyHop[]): AgentWalk {
  const steps: AgentStep[] = [];
  const skippedHops: number[] = [];
  const first = hops[0];
  if (first === undefined) return { steps, skippedHops };
  const lost: Lost = new Map();
  const seen = new Set<string>();
  let current: { url: string; hop: number | null } = { url: first.url, hop: 0 };
  // The page the request comes from; null = the publisher's page, taken to be another site.
  let from: string | null = null;
  for (let guard = 0; guard < hops.length * 4 + 8; guard += 1) {
    const skip = seen.has(current.url) ? null : findSkip(agent, current.url);
    if (skip !== null) {
      seen.add(current.url);
      if (current.hop !== null) skippedHops.push(current.hop);
      const at = matchDestination(hops, current.hop ?? hops.length, skip.destination, lost);
      current = { url: skip.destination, hop: at };
      continue;
    }
    const fromOtherSite = from === null || !sameSite(from, current.url);
    const { url, removed } = stripUrl(agent, current.url, fromOtherSite);
    for (const removal of removed) addLost(lost, removal.name, removal.value);
    steps.push({ url, hop: current.hop, removed });
    const next = current.hop === null ? undefined : hops[current.hop + 1];
    if (next === undefined || current.hop === null) break;
    from = url;
    current = { url: withoutLost(next.url, lost), hop: current.hop + 1 };
  }
  return { steps, skippedHops };
}
