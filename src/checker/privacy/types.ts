// Shapes of the privacy catalogue (what each browser or extension does to a tracking link) and of the
// survival assessment. Field names of PrivacyEntry's first four fields are binding: CONTRACT.md section 10.
import type { CookieRecord, HopKind, Issue, NetworkRef } from '../types.js';
import type { PrivacyAgentId, PrivacyEntry } from '../../contract/check-result.js';

export { PRIVACY_AGENT_IDS, type PrivacyAgentId, type PrivacyEntry } from '../../contract/check-result.js';

/** Where a fact comes from: a documentation URL, or `owner/repo path@commit`, and the ISO date we read it. */
export interface Sourced {
  source: string;
  read: string;
  /** What is ambiguous or approximated, and which reading we encoded. */
  note?: string;
}

/**
 * The URLs a rule applies to. Host patterns, unlike the network catalogue's: `www.awin1.com` is that host only;
 * `*.sjv.io` is sjv.io itself and every subdomain (what Chrome's URLPattern `*.`, AdGuard's `||` and
 * ClearURLs' `(?:[a-z0-9-]+\.)*?` all mean); `*.amazon.*` is any host whose registrable domain is amazon under
 * any public suffix (AdGuard's `||amazon.*`).
 */
export interface UrlScope {
  hosts: readonly string[];
  /** Glob over pathname + search (`*` = any run of characters, the rest literal), e.g. `/cread.php?*`. */
  path?: string;
}

/** Query parameters an agent removes from the URLs it navigates to. */
export interface StripRule extends Sourced {
  /** Parameter names; a trailing `*` makes a prefix (`utm_*`). */
  params: readonly string[];
  /** Only URLs in this scope; absent = every URL. */
  scope?: UrlScope;
  /** Names compare case-insensitively (ClearURLs compiles its rules with the `i` flag). */
  caseInsensitive?: boolean;
  /** Only on navigations that arrive from another site (Brave's query filter, Firefox's query stripping). */
  crossSiteOnly?: boolean;
  /** A parameter with an empty value is left alone (Brave only strips `name=value` with a value). */
  keepsEmpty?: boolean;
  /**
   * The parameters name the publisher on the network's own hop (Awin `awinaffid`, Skimlinks `id`). Removing them
   * there leaves the network a click it cannot credit to the affiliate, so we count the click id as lost.
   */
  identifiesPublisher?: boolean;
  /** ClearURLs' "referral marketing" rules: applied only while that setting is off (see the agent's note). */
  referralMarketing?: boolean;
}

/** A hop the agent never requests: it jumps straight to the URL carried in `param`. */
export interface SkipRule extends Sourced {
  scope: UrlScope;
  /** Query parameter holding the destination URL (percent-decoded before use). */
  param: string;
  /** A destination without a scheme gets this one (Brave `prepend_scheme`; ClearURLs always prepends http://). */
  prependScheme?: 'http' | 'https';
  /** Brave: with `prepend_scheme`, a value that already has a scheme makes the rule erroneous, so the hop runs. */
  onlySchemeless?: boolean;
  /** ClearURLs decodes the value until it is no longer percent-encoded. */
  decodeRepeatedly?: boolean;
  /** The destination must be on another site than the hop (Brave's failsafe "never redirect to the same site"). */
  otherSiteOnly?: boolean;
}

/** A lifetime cap on first-party cookies written by script (document.cookie); Set-Cookie headers are not capped. */
export interface CookieCap extends Sourced {
  days: number;
}

export interface CookiePolicy {
  /** Every script-written persistent cookie. */
  scriptCap: CookieCap | null;
  /** Script cookies after landing from a classified cross-site tracker on a URL with a query or fragment. */
  decoratedLandingCap: CookieCap | null;
}

export interface PrivacyAgent extends Sourced {
  id: PrivacyAgentId;
  /** Human words for issue texts, e.g. "Brave (default Shields)". */
  name: string;
  strips: readonly StripRule[];
  skips: readonly SkipRule[];
  cookies: CookiePolicy | null;
}

/** One hop as the recorded chain gives it. */
export interface PrivacyHop {
  url: string;
  status: number | null;
  kind: HopKind;
  network: NetworkRef | null;
}

/** A cookie of the chain; `setBy` says whether a Set-Cookie header or a script wrote it (null = unknown). */
export interface PrivacyCookie extends CookieRecord {
  setBy?: 'header' | 'script' | null;
}

export interface PrivacyInput {
  hops: readonly PrivacyHop[];
  /** The network the verdict follows (CONTRACT section 3), null when none. */
  networkId: string | null;
  /** Its click-id parameters; empty when the network appends none (Skimlinks, ClickBank). */
  clickIdParams: readonly string[];
  /** The recorded landing URL, null when the chain never landed. */
  landingUrl: string | null;
  cookies: readonly PrivacyCookie[];
  /**
   * Storefront programme (Amazon `tag`, eBay `campid`): the shop's own server records the click id when a hop
   * of the network receives it, so it survives if any such request still carries it.
   */
  storefront?: boolean;
  /** Attribution cookie names of the network (a trailing `*` is a prefix); absent = any first-party cookie. */
  cookieNames?: readonly string[];
}

export interface PrivacyAssessment {
  privacy: PrivacyEntry[];
  issues: Issue[];
}
