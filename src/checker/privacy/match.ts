// Applies one agent's catalogue rules to one URL: which query parameters it removes, and whether it skips the
// URL for a destination carried in a parameter. Pure; tolerant of malformed URLs (no match, no exception).
import { getDomain, getPublicSuffix } from 'tldts';
import { parseUrl, registrableDomain, safeDecode } from '../analysis/url-facts.js';
import type { PrivacyAgent, SkipRule, StripRule, UrlScope } from './types.js';

/** Host pattern semantics: see UrlScope in types.ts. */
export function matchesHost(pattern: string, hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const wildSub = pattern.startsWith('*.');
  const body = wildSub ? pattern.slice(2) : pattern;
  if (body.endsWith('.*')) {
    // Any public suffix: compare what is left of the host once its suffix is removed.
    const suffix = getPublicSuffix(host);
    if (suffix === null || suffix === host) return false;
    const rest = host.slice(0, -(suffix.length + 1));
    const name = body.slice(0, -2);
    return rest === name || (wildSub && rest.endsWith(`.${name}`));
  }
  return host === body || (wildSub && host.endsWith(`.${body}`));
}

/** `*` matches any run of characters; everything else is literal (Chrome URLPattern paths, AdGuard prefixes). */
export function matchesGlob(glob: string, text: string): boolean {
  const parts = glob.split('*');
  if (parts.length === 1) return glob === text;
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (!text.startsWith(first) || text.length < first.length + last.length || !text.endsWith(last)) return false;
  let at = first.length;
  for (const middle of parts.slice(1, -1)) {
    const found = text.indexOf(middle, at);
    if (found === -1 || found + middle.length > text.length - last.length) return false;
    at = found + middle.length;
  }
  return true;
}

export function matchesScope(scope: UrlScope | undefined, url: URL): boolean {
  if (scope === undefined) return true;
  if (!scope.hosts.some((pattern) => matchesHost(pattern, url.hostname))) return false;
  return scope.path === undefined || matchesGlob(scope.path, url.pathname + url.search);
}

function nameMatches(rule: StripRule, name: string): boolean {
  const fold = (text: string): string => (rule.caseInsensitive === true ? text.toLowerCase() : text);
  return rule.params.some((param) => (param.endsWith('*') ? fold(name).startsWith(fold(param.slice(0, -1))) : fold(name) === fold(param)));
}

export interface Removal {
  name: string;
  value: string;
  rule: StripRule;
}

/**
 * The URL as the agent requests it. `fromOtherSite`: the navigation arrives from another site (or from the
 * publisher's page, for the first hop). Parameters are removed token by token so the rest of the query keeps
 * its exact spelling, as Brave and AdGuard do.
 */
export function stripUrl(agent: PrivacyAgent, raw: string, fromOtherSite: boolean): { url: string; removed: Removal[] } {
  const url = parseUrl(raw);
  if (url === null || url.search === '') return { url: raw, removed: [] };
  const rules = agent.strips.filter((rule) => (rule.crossSiteOnly !== true || fromOtherSite) && matchesScope(rule.scope, url));
  if (rules.length === 0) return { url: raw, removed: [] };
  const removed: Removal[] = [];
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((token) => {
      const eq = token.indexOf('=');
      const name = safeDecode((eq === -1 ? token : token.slice(0, eq)).replace(/\+/g, ' '));
      const value = eq === -1 ? '' : safeDecode(token.slice(eq + 1).replace(/\+/g, ' '));
      const rule = rules.find((r) => nameMatches(r, name) && !(r.keepsEmpty === true && value === ''));
      if (rule === undefined || name === '') return true;
      removed.push({ name, value, rule });
      return false;
    });
  if (removed.length === 0) return { url: raw, removed };
  url.search = kept.length === 0 ? '' : `?${kept.join('&')}`;
  return { url: url.href, removed };
}

function destinationOf(rule: SkipRule, url: URL): string | null {
  let value = url.searchParams.get(rule.param);
  if (value === null || value === '') return null;
  if (rule.decodeRepeatedly === true) {
    for (let i = 0; i < 5 && /%[0-9a-f]{2}/i.test(value); i += 1) value = safeDecode(value);
  }
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(value);
  if (hasScheme && rule.onlySchemeless === true) return null;
  const candidate = !hasScheme && rule.prependScheme !== undefined ? `${rule.prependScheme}://${value}` : value;
  const target = parseUrl(candidate);
  if (target === null || (target.protocol !== 'http:' && target.protocol !== 'https:')) return null;
  return target.href;
}

/** Brave compares sites without private registries (debounce_rule.cc); the query filter with them. */
const siteForDebounce = (url: URL): string => getDomain(url.hostname) ?? url.hostname;

/** The first skip rule that applies to a URL, and the destination the agent goes to instead. */
export function findSkip(agent: PrivacyAgent, raw: string): { rule: SkipRule; destination: string } | null {
  const url = parseUrl(raw);
  if (url === null) return null;
  for (const rule of agent.skips) {
    if (!matchesScope(rule.scope, url)) continue;
    const destination = destinationOf(rule, url);
    if (destination === null) continue;
    const target = new URL(destination);
    if (rule.otherSiteOnly === true && siteForDebounce(target) === siteForDebounce(url)) continue;
    return { rule, destination };
  }
  return null;
}

/** Same site: same registrable domain, private suffixes counted (Brave's query filter, Firefox). */
export function sameSite(a: string, b: string): boolean {
  const left = registrableDomain(a);
  return left !== null && left === registrableDomain(b);
}
