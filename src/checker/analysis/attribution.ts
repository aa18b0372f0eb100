// Who tracks the click, and does what they need survive to the landing page?
import { containsMacro } from './macros.js';
import { isAttributionCookie } from '../networks/detect.js';
import { readParams, registrableDomain } from './url-facts.js';
import type { ChainTrace, CookieRecord, Hop, NetworkDefinition, NetworkRef } from '../types.js';

export interface TrackerInChain {
  ref: NetworkRef;
  def: NetworkDefinition | null;
  /** Every hop index this tracker was matched on, ascending. */
  hops: number[];
}

/** The network (or aggregator) whose click id must survive, with what the analysis needs about it. */
export interface AttributionTarget extends TrackerInChain {
  clickIdParams: string[];
}

export type ClickIdState = 'present' | 'empty' | 'placeholder' | 'absent';

/** Per hop, the tracker matched on it: the catalogue entry when given, else the caller's NetworkRef. */
export function resolveHopTrackers(trace: ChainTrace, hopNetworks: readonly (NetworkDefinition | null)[]) {
  return trace.hops.map((hop, index) => {
    const def = hopNetworks[index] ?? null;
    const ref: NetworkRef | null = def !== null ? { id: def.id, name: def.name, role: def.role } : hop.network;
    return ref === null ? null : { ref, def };
  });
}

type HopTracker = ReturnType<typeof resolveHopTrackers>[number];

/** `networks` of the result: chain order, consecutive repeats of the same id collapsed. */
export function listNetworks(trackers: readonly HopTracker[]): NetworkRef[] {
  const out: NetworkRef[] = [];
  for (const tracker of trackers) {
    if (tracker === null) continue;
    if (out[out.length - 1]?.id !== tracker.ref.id) out.push({ ...tracker.ref });
  }
  return out;
}

function lastOfRole(trackers: readonly HopTracker[], role: NetworkRef['role']): TrackerInChain | null {
  for (let i = trackers.length - 1; i >= 0; i -= 1) {
    const tracker = trackers[i];
    if (tracker === undefined || tracker === null || tracker.ref.role !== role) continue;
    const id = tracker.ref.id;
    const hops = trackers.flatMap((t, index) => (t !== null && t.ref.id === id ? [index] : []));
    return { ref: tracker.ref, def: tracker.def, hops };
  }
  return null;
}

/** The contract's `network`: the last tracker with role `network`. */
export function findVerdictNetwork(trackers: readonly HopTracker[]): TrackerInChain | null {
  return lastOfRole(trackers, 'network');
}

/**
 * Whose attribution the verdict checks: the verdict network, or — when an aggregator is the only tracker
 * (Skimlinks linking a merchant directly) — that aggregator. Shorteners never attribute anything.
 */
export function findAttributionTarget(trackers: readonly HopTracker[]): AttributionTarget | null {
  const tracker = lastOfRole(trackers, 'network') ?? lastOfRole(trackers, 'aggregator');
  if (tracker === null) return null;
  return { ...tracker, clickIdParams: tracker.def?.clickIdParams ?? [] };
}

/** The state of one click-id parameter in a URL; a placeholder or empty value identifies no click. */
export function readClickId(url: string, name: string): { state: ClickIdState; values: string[] } {
  const values = readParams(url).getAll(name);
  if (values.length === 0) return { state: 'absent', values };
  const real = values.filter((value) => value.trim() !== '' && !containsMacro(value));
  if (real.length > 0) return { state: 'present', values: real };
  return { state: values.some((value) => value.trim() !== '') ? 'placeholder' : 'empty', values };
}

/** Click-id parameters carrying a real value in a URL. */
export function clickIdsIn(url: string, names: readonly string[]): string[] {
  return names.filter((name) => readClickId(url, name).state === 'present');
}

const cookieKey = (c: CookieRecord): string => `${c.name}\u0000${c.domain.replace(/^\./, '').toLowerCase()}\u0000${c.path}`;

/**
 * A record that deletes its cookie: it arrived already expired. `expiryDays` is rounded to one decimal, so a
 * short-lived cookie (Max-Age=600 → 0.0 days) is told apart by its expiry time, which is still ahead.
 */
function isDeletion(cookie: CookieRecord, now: number): boolean {
  if (cookie.expiryDays === null || cookie.expiryDays > 0) return false;
  const expires = cookie.expiresAt === null ? Number.NaN : Date.parse(cookie.expiresAt);
  return Number.isNaN(expires) || expires <= now;
}

/**
 * The cookies still standing at the end of the chain: a later Set-Cookie for the same name/domain/path
 * replaces an earlier one, and an already-expired one (Max-Age=0, a past Expires) deletes it.
 */
export function standingCookies(cookies: readonly CookieRecord[], now: number = Date.now()): CookieRecord[] {
  const last = new Map<string, CookieRecord>();
  for (const cookie of cookies) {
    last.delete(cookieKey(cookie));
    last.set(cookieKey(cookie), cookie);
  }
  return [...last.values()].filter((c) => !isDeletion(c, now));
}

export interface CookieSummary {
  firstPartyCookieSet: boolean;
  thirdPartyCookieSet: boolean;
  cookieExpiryDays: number | null;
}

export function summariseCookies(standing: readonly CookieRecord[]): CookieSummary {
  const lifetimes = standing.filter((c) => c.firstParty && c.expiryDays !== null).map((c) => c.expiryDays ?? 0);
  return {
    firstPartyCookieSet: standing.some((c) => c.firstParty),
    thirdPartyCookieSet: standing.some((c) => !c.firstParty),
    cookieExpiryDays: lifetimes.length === 0 ? null : Math.round(Math.max(...lifetimes) * 10) / 10,
  };
}

/** First-party cookies that carry the target's attribution (its catalogue `cookieNames`). */
export function attributionCookies(standing: readonly CookieRecord[], target: AttributionTarget | null): CookieRecord[] {
  const def = target?.def ?? null;
  if (def === null) return [];
  return standing.filter((c) => c.firstParty && isAttributionCookie(c.name, def));
}

/**
 * Storefront programmes (Amazon `tag`, eBay `campid`: the entry's host rule requires its own click id) run on
 * the shop itself, so the shop's server records the click id on the programme's own hop. When such a hop
 * answered and the chain stays on that shop's site, later redirects inside the shop that drop the parameter
 * (`/gp/product/…?tag=` → `/dp/…`) lose nothing. Leaving the site (amazon.com → amazon.co.uk, another
 * marketplace with its own tags) does lose it.
 */
export function receivedByStorefront(target: AttributionTarget, hops: readonly Hop[], finalUrl: string): boolean {
  const required = target.def?.requiredParams ?? [];
  if (!target.clickIdParams.some((name) => required.includes(name))) return false;
  const landingSite = registrableDomain(finalUrl);
  return target.hops.some((index) => {
    const hop = hops[index];
    if (hop === undefined || hop.status === null || hop.status < 200 || hop.status >= 400) return false;
    return clickIdsIn(hop.url, target.clickIdParams).length > 0 && registrableDomain(hop.url) === landingSite;
  });
}
