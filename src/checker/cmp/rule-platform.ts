// From an autoconsent rule name to the platform the report names (autoconsent-platforms.ts), and the facts
// we hold on each platform whichever way it was recognised.
import { EXTRA_PLATFORMS, RULE_PLATFORM_IDS } from './autoconsent-platforms.js';
import { CONSENT_PLATFORMS } from './catalogue-data.js';
import { matchesCookieName } from '../analysis/cookies.js';
import type { PlatformFacts } from './types.js';

const FACTS = new Map<string, PlatformFacts>([...CONSENT_PLATFORMS, ...EXTRA_PLATFORMS].map((platform) => [platform.id, platform]));

/** `Complianz categories` → `complianz_categories`, `cookiefirst.com` → `cookiefirst_com`. */
export function snakeCaseId(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * The platform behind an autoconsent rule: a named platform (contract id where one applies); null for a
 * rule written for one site (a URL pattern, or a generated `auto_…` rule), which answers that site's own
 * banner; otherwise the rule's name as a snake_case id.
 */
export function platformForRule(rule: string, siteSpecific: ReadonlySet<string>): PlatformFacts | null {
  const id = RULE_PLATFORM_IDS[rule];
  if (id !== undefined) return FACTS.get(id) ?? { id, name: rule, consentCookies: [], sources: [] };
  if (siteSpecific.has(rule)) return null;
  return { id: snakeCaseId(rule), name: rule, consentCookies: [], sources: [] };
}

/** A cookie in which the platform records the visitor's choice (`consentCookies`: names or `prefix*`). */
export function isConsentCookie(name: string, facts: PlatformFacts): boolean {
  return matchesCookieName(name, facts.consentCookies);
}
