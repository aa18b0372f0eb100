// Which catalogue entry a hop URL belongs to, and what the entry says about it. Runs on every hop, so the
// host tables and regexes are compiled once at module load; a lookup is one Map probe per host label.
import { matchesCookieName } from '../analysis/cookies.js';
import type { NetworkDefinition, NetworkRef } from '../types.js';
import { NETWORKS } from './catalogue.js';

interface HostRule {
  def: NetworkDefinition;
  paths: readonly RegExp[];
  required: readonly string[];
  excluded: readonly string[];
}

interface SignatureOwner {
  def: NetworkDefinition;
  rank: number;
}

const networksById = new Map<string, NetworkDefinition>();
const exactHostRules = new Map<string, HostRule[]>();
/** Keyed by the suffix without "*.": "sjv.io" answers for "brand.sjv.io", never for "sjv.io" itself. */
const suffixHostRules = new Map<string, HostRule[]>();
const signatureOwners = new Map<string, SignatureOwner>();
const patternCache = new Map<string, RegExp>();

function compilePattern(source: string): RegExp {
  let compiled = patternCache.get(source);
  if (compiled === undefined) {
    compiled = new RegExp(source);
    patternCache.set(source, compiled);
  }
  return compiled;
}

function addRule(table: Map<string, HostRule[]>, key: string, rule: HostRule): void {
  const rules = table.get(key);
  if (rules === undefined) table.set(key, [rule]);
  else rules.push(rule);
}

NETWORKS.forEach((def, rank) => {
  networksById.set(def.id, def);
  const rule: HostRule = {
    def,
    paths: def.paths.map(compilePattern),
    required: def.requiredParams ?? [],
    excluded: def.excludedParams ?? [],
  };
  for (const pattern of def.hosts) {
    const host = pattern.toLowerCase();
    if (host.startsWith('*.')) addRule(suffixHostRules, host.slice(2), rule);
    else addRule(exactHostRules, host, rule);
  }
  for (const param of def.signatureParams) {
    // The first entry in catalogue order owns a parameter; a test keeps signature names unique anyway.
    if (!signatureOwners.has(param)) signatureOwners.set(param, { def, rank });
  }
  if (def.deepLinkPathPattern !== null) compilePattern(def.deepLinkPathPattern);
});

function toUrl(url: string | URL): URL | null {
  if (url instanceof URL) return url;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

function passesRule(rule: HostRule, url: URL): boolean {
  if (rule.paths.length > 0 && !rule.paths.some((path) => path.test(url.pathname))) return false;
  const params = url.searchParams;
  if (rule.required.length > 0 && !rule.required.some((name) => params.has(name))) return false;
  return !rule.excluded.some((name) => params.has(name));
}

function firstPassing(rules: HostRule[] | undefined, url: URL): NetworkDefinition | null {
  if (rules === undefined) return null;
  for (const rule of rules) if (passesRule(rule, url)) return rule.def;
  return null;
}

function matchHost(url: URL): NetworkDefinition | null {
  // URL lowercases the host already; a trailing dot (FQDN form) names the same host.
  const host = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  const exact = firstPassing(exactHostRules.get(host), url);
  if (exact !== null) return exact;
  // Longest suffix first, so a more specific "*.a.b.c" wins over "*.b.c".
  for (let dot = host.indexOf('.'); dot !== -1; dot = host.indexOf('.', dot + 1)) {
    const bySuffix = firstPassing(suffixHostRules.get(host.slice(dot + 1)), url);
    if (bySuffix !== null) return bySuffix;
  }
  return null;
}

function matchSignature(url: URL): NetworkDefinition | null {
  let best: SignatureOwner | undefined;
  for (const name of url.searchParams.keys()) {
    const owner = signatureOwners.get(name);
    if (owner !== undefined && (best === undefined || owner.rank < best.rank)) best = owner;
  }
  return best?.def ?? null;
}

/** The catalogue entry a hop URL belongs to: host (and path/parameter rules) first, then signature parameters. */
export function detectNetwork(url: string | URL): NetworkDefinition | null {
  const parsed = toUrl(url);
  if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return null;
  return matchHost(parsed) ?? matchSignature(parsed);
}

const vanityRules = NETWORKS.flatMap((def) =>
  def.vanityLinks === undefined
    ? []
    : [{ def, path: compilePattern(def.vanityLinks.pathPattern), nextHopParams: def.vanityLinks.nextHopParams }],
);

/** Where a hop sends the shopper: its Location (resolved against the hop), else the next hop's URL. */
function onwardUrl(hop: { url: string; location: string | null }, next: { url: string } | undefined): URL | null {
  if (hop.location !== null) {
    try {
      return new URL(hop.location, hop.url);
    } catch {
      return null;
    }
  }
  return next === undefined ? null : toUrl(next.url);
}

function matchVanity(hop: { url: string; location: string | null }, next: { url: string } | undefined): NetworkDefinition | null {
  const url = toUrl(hop.url);
  if (url === null) return null;
  const rule = vanityRules.find((r) => r.path.test(url.pathname));
  if (rule === undefined) return null;
  const onward = onwardUrl(hop, next);
  return onward !== null && rule.nextHopParams.some((name) => onward.searchParams.has(name)) ? rule.def : null;
}

/**
 * The catalogue entry of each hop of a followed chain: detectNetwork per hop, then, for a hop it does not know, a
 * brand's vanity click domain, which only the URL the hop sends the shopper on to gives away.
 */
export function detectChainNetworks(hops: readonly { url: string; location: string | null }[]): (NetworkDefinition | null)[] {
  return hops.map((hop, i) => detectNetwork(hop.url) ?? matchVanity(hop, hops[i + 1]));
}

export function getNetwork(id: string): NetworkDefinition | undefined {
  return networksById.get(id);
}

export function toNetworkRef(def: NetworkDefinition): NetworkRef {
  return { id: def.id, name: def.name, role: def.role };
}

function readParam(params: URLSearchParams, name: string): string | null {
  const exact = params.get(name);
  if (exact !== null) return exact;
  // Some networks spell their destination parameter either way (FlexOffers url/URL, Commission Factory Url/url).
  const wanted = name.toLowerCase();
  for (const [key, value] of params) if (key.toLowerCase() === wanted) return value;
  return null;
}

function decodeOnce(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

const ABSOLUTE_HTTP = /^https?:\/\//i;
const SCHEMELESS_HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}(?:[/?#:]|$)/i;

/** A carried destination as an absolute http(s) URL, undoing up to three layers of percent-encoding. */
function normalizeDestination(raw: string): string | null {
  let value = raw.trim();
  for (let layer = 0; layer < 3 && !ABSOLUTE_HTTP.test(value) && /%[0-9a-f]{2}/i.test(value); layer++) {
    const decoded = decodeOnce(value);
    if (decoded === null || decoded === value) break;
    value = decoded.trim();
  }
  let candidate: string;
  if (ABSOLUTE_HTTP.test(value)) candidate = value;
  else if (value.startsWith('//')) candidate = `https:${value}`;
  // ShareASale's urllink and similar are often written without a scheme ("www.shop.com/p").
  else if (SCHEMELESS_HOST.test(value)) candidate = `https://${value}`;
  else return null;
  const parsed = toUrl(candidate);
  if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return null;
  if (!parsed.hostname.includes('.') && !parsed.hostname.startsWith('[')) return null;
  return parsed.href;
}

/**
 * The destination a tracking link carries (deepLinkPathPattern, matched against path + query, then
 * deepLinkParam), decoded; null unless it is an absolute http(s) URL (a bare path like "/sale" is not).
 */
export function extractDeepLink(url: string | URL, def: NetworkDefinition): string | null {
  const parsed = toUrl(url);
  if (parsed === null) return null;
  if (def.deepLinkPathPattern !== null) {
    const match = compilePattern(def.deepLinkPathPattern).exec(parsed.pathname + parsed.search);
    const captured = match?.[1];
    if (captured !== undefined) {
      const destination = normalizeDestination(captured);
      if (destination !== null) return destination;
    }
  }
  if (def.deepLinkParam !== null) {
    const value = readParam(parsed.searchParams, def.deepLinkParam);
    if (value !== null) return normalizeDestination(value);
  }
  return null;
}

/** Whether a cookie name is one of the entry's attribution cookies (exact, or prefix for a trailing "*"). Case-sensitive, as cookie names are. */
export function isAttributionCookie(cookieName: string, def: NetworkDefinition): boolean {
  return matchesCookieName(cookieName, def.cookieNames);
}
