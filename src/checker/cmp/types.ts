// Shapes of the consent-platform catalogue (data with sources, see catalogue-data.ts).

/**
 * One way to make a choice on a banner: selectors clicked in order (a CSS selector list matches any of
 * its parts). A platform lists several alternatives; the first whose first step is visible is used.
 */
export type ChoicePath = readonly string[];

export interface ConsentPlatformDefinition {
  /** Contract id (CONTRACT.md section 3): onetrust, cookiebot, … */
  id: string;
  name: string;
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
  /** Where the selectors and signals come from (vendor documentation first). */
  sources: readonly string[];
  notes?: string;
}
