// The three consent scenarios' building blocks: wait for the banner, read what a scenario left behind
// (the network's click id in the page URL, its attribution cookies on the landing site).
import type { BrowserContext, Page } from 'playwright-core';
import { clickIdsIn, type AttributionTarget } from '../analysis/attribution.js';
import { readAttributionCookieNames } from '../browser/browser-cookies.js';
import { isAttributionCookie } from '../networks/detect.js';
import type { ConsentScenarioName } from '../types.js';
import { choiceAvailable } from './choices.js';
import type { AutoconsentSession } from './autoconsent-session.js';
import { readConsentPlatform, type DetectedPlatform } from './detect.js';

export interface ScenarioResult {
  scenario: ConsentScenarioName;
  clickIdPresent: boolean;
  attributionCookies: string[];
}

export interface BannerWait {
  detected: DetectedPlatform;
  /** The autoconsent rule that found a shown banner (popupFound), null when none did. */
  rule: string | null;
  /** A known banner is visible, or a choice control is. */
  bannerShown: boolean;
  waitedMs: number;
}

const POLL_MS = 150;
// Without a known platform, a TCF API or a generic control is worth this long a wait for a known banner.
const GENERIC_WAIT_MS = 1_500;
// Once our catalogue sees its banner, autoconsent gets this long to report the same banner (it polls every
// 500 ms), so that the choice scenarios know whether it can answer it.
const AUTOCONSENT_GRACE_MS = 1_200;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function anyChoiceVisible(page: Page, detected: DetectedPlatform): Promise<boolean> {
  return (await choiceAvailable(page, detected.platform, 'accept')) || (await choiceAvailable(page, detected.platform, 'reject'));
}

/**
 * Polls the landing page until a banner shows (or `waitMs` passes) and says what is there: our catalogue's
 * reading of the page and, with an autoconsent session, the rule that found a banner.
 */
export async function waitForBanner(page: Page, waitMs: number, session: AutoconsentSession | null = null): Promise<BannerWait> {
  const started = Date.now();
  let seenAt: number | null = null;
  for (;;) {
    const detected = await readConsentPlatform(page);
    const waitedMs = Date.now() - started;
    const rule = session?.popup()?.rule ?? null;
    if (rule !== null) return { detected, rule, bannerShown: true, waitedMs };
    const controls = await anyChoiceVisible(page, detected);
    const known = detected.platform !== null && (detected.bannerVisible || controls);
    if (known) seenAt ??= Date.now();
    if (known && (session === null || Date.now() - (seenAt ?? 0) >= AUTOCONSENT_GRACE_MS))
      return { detected, rule, bannerShown: true, waitedMs };
    if (detected.platform === null && controls && waitedMs >= Math.min(waitMs, GENERIC_WAIT_MS))
      return { detected, rule, bannerShown: true, waitedMs };
    if (waitedMs >= waitMs) return { detected, rule, bannerShown: controls, waitedMs };
    // With autoconsent, its report ends the pause at once.
    if (session === null) await sleep(POLL_MS);
    else await session.waitUntil(() => session.popup() !== null, POLL_MS);
  }
}

/**
 * What the scenario left: the target's click id in the page's current URL (scripts may have rewritten it),
 * and the target's attribution cookies on the landing site (`landingUrl`'s registrable domain).
 */
export async function readScenario(
  scenario: ConsentScenarioName,
  page: Page,
  context: BrowserContext,
  target: AttributionTarget | null,
  landingUrl: string,
): Promise<ScenarioResult> {
  if (target === null) return { scenario, clickIdPresent: false, attributionCookies: [] };
  const clickIdPresent = clickIdsIn(page.url(), target.clickIdParams).length > 0;
  const def = target.def;
  const attributionCookies =
    def === null ? [] : await readAttributionCookieNames(context, landingUrl, (name) => isAttributionCookie(name, def));
  return { scenario, clickIdPresent, attributionCookies };
}
