// Which consent platform a landing page runs, read from the live page: the scripts it loaded, the globals
// it defines and the banner markup in the DOM, matched against the catalogue. An IAB TCF API with none of
// those is `tcf`.
import type { Page } from 'playwright-core';
import { CONSENT_PLATFORMS, TCF_PLATFORM } from './catalogue-data.js';
import { runPageScript } from '../browser/page-script.js';
import type { PageConsentSignals, PlatformEvidence } from '../browser/page-script-types.js';
import type { ConsentPlatformDefinition } from './types.js';

export interface DetectedPlatform {
  /** null = no known platform and no TCF API. */
  platform: ConsentPlatformDefinition | null;
  /** `tcf`: an IAB TCF API without a known banner. */
  tcf: boolean;
  /** The platform's banner is visible (for `tcf`/none: unknown, false). */
  bannerVisible: boolean;
}

const byId = new Map(CONSENT_PLATFORMS.map((platform) => [platform.id, platform]));
const SIGNALS = CONSENT_PLATFORMS.map(({ id, scripts, globals, banner }) => ({ id, scripts, globals, banner }));

export function getConsentPlatform(id: string): ConsentPlatformDefinition | undefined {
  return byId.get(id);
}

/** The id and display name the contract reports (`tcf` included). */
export function platformRef(detected: DetectedPlatform): { id: string; name: string } | null {
  if (detected.platform !== null) return { id: detected.platform.id, name: detected.platform.name };
  return detected.tcf ? { id: TCF_PLATFORM.id, name: TCF_PLATFORM.name } : null;
}

// Strongest evidence first: a visible banner, then banner markup, then the platform's own script, then a global.
function strength(evidence: PlatformEvidence): number {
  return (evidence.bannerVisible ? 8 : 0) + (evidence.banner ? 4 : 0) + (evidence.script ? 2 : 0) + (evidence.global ? 1 : 0);
}

/** Picks the platform from the page's signals (pure, for tests of the rules). */
export function choosePlatform(signals: PageConsentSignals): DetectedPlatform {
  let best: PlatformEvidence | null = null;
  for (const evidence of signals.platforms) {
    // A lone global is weak (short names like `klaro` can be a site's own); it needs a script or markup too.
    if (!evidence.script && !evidence.banner) continue;
    if (best === null || strength(evidence) > strength(best)) best = evidence;
  }
  const platform = best === null ? null : (byId.get(best.id) ?? null);
  return { platform, tcf: platform === null && signals.tcf, bannerVisible: best?.bannerVisible ?? false };
}

/** Reads the page once. A page that is navigating (or too busy to answer) reads as "nothing found". */
export async function readConsentPlatform(page: Page): Promise<DetectedPlatform> {
  const read = await runPageScript(page, 'consent-signals', SIGNALS);
  if (read.kind !== 'done') return { platform: null, tcf: false, bannerVisible: false };
  return choosePlatform(read.value);
}
