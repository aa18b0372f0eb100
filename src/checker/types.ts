// The engine's public data shapes. Field names follow CONTRACT.md section 3 ("The check") exactly:
// the API, the CLI, the evidence file and the web pages all render these objects.
import type { CheckResultFields, ConsentResult, CookieRecord, Hop, Issue, NetworkRef } from '../contract/check-result.js';
import type { EngineRecord } from './engine-record.js';

// The shapes the engine shares with the API are declared once, in the contract (src/contract/check-result.ts).
export type { CheckResultFields, ConsentResult, CookieRecord, Hop, Issue, NetworkRef };
export type HopKind = Hop['kind'];
export type NetworkRole = NetworkRef['role'];
export type Severity = Issue['severity'];
export type CheckMode = CheckResultFields['mode'];
export type ConsentScenarioName = ConsentResult['scenarios'][number]['scenario'];

/** Everything the engine decides about one link: the check minus identity/lifecycle fields. */
export interface CheckResult extends CheckResultFields {
  /** What the engine ran with (stored with the result for the evidence file; not part of the API's check). */
  engine?: EngineRecord;
}

/** One affiliate network, aggregator or shortener in the catalogue (data with sources). */
export interface NetworkDefinition {
  id: string;
  name: string;
  role: NetworkRole;
  /** Host patterns: exact host ("www.awin1.com") or "*.suffix" (any subdomain of suffix, not the bare suffix). */
  hosts: string[];
  /** Optional path patterns (RegExp sources) a URL on those hosts must match; empty = any path. */
  paths: string[];
  /**
   * On `hosts`, the URL must also carry at least one of these query parameters to match: for programmes
   * that run on the merchant's own storefront (Amazon `tag`, eBay `campid`), where the bare host is just the shop.
   */
  requiredParams?: string[];
  /**
   * On `hosts`, a URL carrying any of these query parameters is NOT this entry (Amazon Attribution links
   * carry `maas` and a placeholder `tag=maas` that is not an Associates tag).
   */
  excludedParams?: string[];
  /** Query parameters that identify the link on the network's own hop (consumed by the network by design). */
  linkParams: string[];
  /**
   * Query parameters that, present on ANY host, identify this network's link
   * (e.g. Refersion `rfsn`, Rewardful `via`): for networks that live on the merchant's own domain.
   */
  signatureParams: string[];
  /** Parameter that carries the deep-link destination URL (e.g. Awin `ued`), null if none. */
  deepLinkParam: string | null;
  /**
   * For networks that carry the destination in the path (Partnerize `/destination:<url>`, CJ
   * `/links/<pid>/type/dlg/<url>`): a RegExp source whose first capture group is the (possibly encoded) URL.
   */
  deepLinkPathPattern: string | null;
  /**
   * A brand's own click domain pointed at the network (Impact's `goto.<brand>.com`), which no host list can name:
   * a hop on any host whose path matches `pathPattern` (a RegExp source) and that sends the shopper on to a URL
   * carrying one of `nextHopParams` (the click id the network appends) belongs to this entry.
   */
  vanityLinks?: { pathPattern: string; nextHopParams: string[] };
  /**
   * Statuses the network's own hop documents as refusing the link (Sovrn: 403 for a destination it will not
   * redirect to). Such an answer on its hop is the network's decision, reported as an error with `meaning`,
   * not as bot protection.
   */
  refusals?: { status: number; meaning: string }[];
  /** Click-id parameters the network appends at landing; at least one must survive. Empty = none expected. */
  clickIdParams: string[];
  /**
   * Parameters the network sends along with its click id (ClickBank's `hopId` and `tid` beside `hop`): optional,
   * but once one reaches a hop after the network's, it must reach the landing page too (CONTRACT.md section 7).
   */
  companionClickIdParams?: string[];
  /** Attribution cookie names or prefixes (a trailing "*" means prefix). */
  cookieNames: string[];
  /**
   * The network runs the order form or checkout itself and attributes through its own cookie (ClickBank,
   * Digistore24): the landing site needs no first-party cookie, so first_party_cookie_missing is not raised.
   */
  ownsCheckout?: boolean;
  /** Default attribution window in days, null when set per programme / unknown. */
  defaultWindowDays: number | null;
  sources: string[];
  notes?: string;
}

/** How the hop-by-hop follower stopped. */
export type ChainEnd =
  | { reason: 'landed' }
  | { reason: 'redirect_loop'; hop: number }
  | { reason: 'too_many_redirects'; hop: number }
  | { reason: 'blocked_private_address'; hop: number; address: string }
  | { reason: 'unreachable'; hop: number; error: string }
  | { reason: 'check_timeout'; hop: number };

/** What the follower learnt from the landing page's response (the last hop). */
export interface PageFacts {
  contentType: string | null;
  title: string | null;
  /** Bot protection answered instead of the site (403/429, challenge or captcha page). */
  botWall: boolean;
  /** schema.org availability of the product on the page, null when the page declares none. */
  availability: 'in_stock' | 'out_of_stock' | null;
  /** The page navigates by script in a way the literal-redirect reader could not resolve. */
  scriptNavigation: boolean;
}

/** The raw result of following a chain, before analysis. hop.network is still null here. */
export interface ChainTrace {
  hops: Hop[];
  end: ChainEnd;
  landing: PageFacts | null;
  /** Every cookie the chain set, in order; firstParty is decided against the last hop's registrable domain. */
  cookies: CookieRecord[];
}
