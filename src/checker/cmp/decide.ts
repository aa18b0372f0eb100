// Who names the platform and who answers the banner when our catalogue (detect.ts) and DuckDuckGo's
// autoconsent (an autoconsent rule that found a shown banner) both have a say. Pure; docs/consent.md
// "Which platform wins". In short:
//   1. A catalogue platform whose own banner is visible names the platform (vendor script + vendor markup
//      are the strongest evidence, and the ids are the contract's). autoconsent answers it only if its rule
//      is the same platform; a different rule is ignored and our controls answer.
//   2. Otherwise the autoconsent rule that found the banner names it (a rule written for one site names
//      none: a site's own banner) and answers it; the catalogue's controls of that platform, then the words,
//      are the fallback when its answer cannot be confirmed.
//   3. Otherwise what the catalogue found (markup or script with a choice control), then TCF, then nothing.
import type { DetectedPlatform } from './detect.js';
import { getConsentPlatform, platformRef } from './detect.js';
import { platformForRule } from './rule-platform.js';
import type { ConsentPlatformDefinition, PlatformFacts } from './types.js';

export interface PlatformRef {
  id: string;
  name: string;
}

export interface ConsentDecision {
  /** What the report names; null when no platform is known (a custom banner, or none). */
  platform: PlatformRef | null;
  /** Our catalogue entry whose controls answer the banner (or stand by when autoconsent answers). */
  catalogue: ConsentPlatformDefinition | null;
  /** Facts on the named platform (the cookies in which it records the choice). */
  facts: PlatformFacts | null;
  /** The autoconsent rule that answers the banner in the choice scenarios; null: our controls answer. */
  rule: string | null;
}

const ref = (facts: PlatformFacts): PlatformRef => ({ id: facts.id, name: facts.name });

export function decideConsent(detected: DetectedPlatform, rule: string | null, siteSpecific: ReadonlySet<string>): ConsentDecision {
  // undefined: autoconsent found no banner; null: it found one with a rule written for this site.
  const byRule = rule === null ? undefined : platformForRule(rule, siteSpecific);
  const catalogue = detected.platform;
  if (catalogue !== null && detected.bannerVisible) {
    const agrees = byRule !== undefined && byRule !== null && byRule.id === catalogue.id;
    return { platform: ref(catalogue), catalogue, facts: catalogue, rule: agrees ? rule : null };
  }
  if (rule !== null && byRule !== undefined) {
    const own = byRule === null ? null : (getConsentPlatform(byRule.id) ?? null);
    return { platform: byRule === null ? null : ref(byRule), catalogue: own, facts: byRule, rule };
  }
  // What the catalogue found (or TCF), as the contract names it.
  return { platform: platformRef(detected), catalogue, facts: catalogue, rule: null };
}
