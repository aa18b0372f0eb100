// Shapes of the consent-platform catalogue (data with sources, see catalogue-data.ts).

/**
 * One way to make a choice on a banner: selectors clicked in order (a CSS selector list matches any of
 * its parts). A platform lists several alternatives; the first whose first step is visible is used.
 */
export type ChoicePath = readonly string[];

/** What we know of a consent platform whichever way it was recognised (catalogue or autoconsent rule). */
export interface PlatformFacts {
  /** Contract id (CONTRACT.md section 3) where one applies, else our own snake_case id. */
  id: string;
  name: string;
  /**
   * Cookies in which the platform records the visitor's choice (exact names, or `prefix*`): the banner's own
   * bookkeeping, never evidence that the site itself stored anything.
   */
  consentCookies: readonly string[];
  /** An IAB TCF CMP: exposes `__tcfapi`, so TCF-aware tags follow its choice. */
  tcf?: boolean;
  /** Where the facts come from (vendor documentation first). */
  sources: readonly string[];
  notes?: string;
}

export interface ConsentPlatformDefinition extends PlatformFacts {
  /** Lower-case substrings of the URLs of scripts the platform loads (matched against every script the page ran). */
  scripts: readonly string[];
  /** Globals the platform defines on `window`. */
  globals: readonly string[];
  /** The banner's root (or its shadow host / iframe container): present = the banner is on the page. */
  banner: readonly string[];
  /** "Accept all" on the first layer, alternatives in order. Searched in every frame (Sourcepoint uses an iframe). */
  accept: readonly ChoicePath[];
  /** "Reject all" / "necessary only", alternatives in order (some open a second layer first). */
  reject: readonly ChoicePath[];
}
