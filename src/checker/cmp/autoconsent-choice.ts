// A choice scenario answered by DuckDuckGo's autoconsent: wait for its rule to find the banner, ask the frame
// that found it to opt in or out, then confirm that the choice took (autoconsent's own `result` is not
// enough: a rule may report success without having clicked, or failure after an API call that worked).
// Unconfirmed, our catalogue's controls and then the words answer the banner instead (choices.ts). Before
// the rule, where our catalogue knows the platform's first-layer control, that control is clicked first
// (chooseFirstLayer: the fast path, confirmed the same way), and the rule answers only when it fails.
import type { BrowserContext, Page } from 'playwright-core';
import type { AutoconsentSession } from './autoconsent-session.js';
import { choiceAvailable, firstLayerControl, makeChoice, STEP_TIMEOUT_MS, type ChoiceResult, type ConsentChoice } from './choices.js';
import type { ConsentDecision } from './decide.js';
import { isConsentCookie } from './rule-platform.js';

// The slowest rules wait a few seconds themselves (OneTrust's second layer, Cookiebot's withdraw).
const ACTION_TIMEOUT_MS = 8_000;
// How long a banner may take to go away after the rule reported (hide animations).
const CONFIRM_MS = 400;
// The fallback looks for controls this long when autoconsent did find the banner.
const FALLBACK_MS = 1_000;
const POLL_MS = 100;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function consentCookies(context: BrowserContext, decision: ConsentDecision): Promise<Set<string>> {
  const facts = decision.facts;
  if (facts === null || facts.consentCookies.length === 0) return new Set();
  return new Set((await context.cookies()).map((cookie) => cookie.name).filter((name) => isConsentCookie(name, facts)));
}

/**
 * The choice took when the platform recorded it (a consent cookie of its own appeared), or when the
 * choice's control, visible before, is gone. With no visible control to watch, autoconsent's word stands.
 */
async function confirmChoice(
  page: Page,
  context: BrowserContext,
  decision: ConsentDecision,
  choice: ConsentChoice,
  before: { cookies: Set<string>; controls: boolean },
  reported: boolean,
): Promise<boolean> {
  const until = Date.now() + CONFIRM_MS;
  for (;;) {
    const now = await consentCookies(context, decision);
    if ([...now].some((name) => !before.cookies.has(name))) return true;
    if (before.controls && !(await choiceAvailable(page, decision.catalogue, choice))) return true;
    if (!before.controls && reported) return true;
    if (Date.now() >= until) return false;
    await sleep(POLL_MS);
  }
}

/**
 * The fast path, tried before autoconsent's rule where our catalogue knows the platform's first-layer control
 * for the choice (and the first visit saw it): that control clicked as soon as it shows, with none of the
 * rule's waits. It counts when confirmed the same way as autoconsent's answer (a click that closes the
 * banner's frame may throw after it took); otherwise it is not clicked, and the rule answers.
 */
export async function chooseFirstLayer(
  page: Page,
  context: BrowserContext,
  decision: ConsentDecision,
  choice: ConsentChoice,
  timeoutMs: number,
): Promise<ChoiceResult> {
  const cookies = await consentCookies(context, decision);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const control = await firstLayerControl(page, decision.catalogue, choice);
    if (control !== null) {
      await control.click({ timeout: STEP_TIMEOUT_MS }).catch(() => undefined);
      const took = await confirmChoice(page, context, decision, choice, { cookies, controls: true }, false);
      return took ? { clicked: true, via: 'platform' } : { clicked: false, via: null };
    }
    if (Date.now() >= until) return { clicked: false, via: null };
    await sleep(POLL_MS);
  }
}

export async function chooseWithAutoconsent(
  page: Page,
  context: BrowserContext,
  session: AutoconsentSession,
  decision: ConsentDecision,
  choice: ConsentChoice,
  bannerWaitMs: number,
): Promise<ChoiceResult> {
  const cookies = await consentCookies(context, decision);
  if (!(await session.waitUntil(() => session.popup() !== null, bannerWaitMs))) {
    // autoconsent did not see the banner this time: our controls still may.
    return makeChoice(page, decision.catalogue, choice, FALLBACK_MS);
  }
  // Read while the rule starts (most wait before their first click), not before it: no time added.
  const controlsBefore = choiceAvailable(page, decision.catalogue, choice).catch(() => false);
  if (await session.act(choice === 'accept' ? 'optIn' : 'optOut')) {
    await session.waitUntil(() => session.result() !== null || session.navigatedAfterPopup(), ACTION_TIMEOUT_MS);
  }
  const controls = await controlsBefore;
  // A consent choice that reloads the page took (and left nothing to confirm on this document).
  if (session.navigatedAfterPopup()) return { clicked: true, via: 'autoconsent' };
  const result = session.result();
  if (result !== null && (await confirmChoice(page, context, decision, choice, { cookies, controls }, result.result))) {
    return { clicked: true, via: 'autoconsent' };
  }
  session.stop();
  return makeChoice(page, decision.catalogue, choice, FALLBACK_MS);
}
