// One scenario with a choice (accept_all or reject_all): the chain again in a fresh context of the same
// lease, the banner answered — by our catalogue's first-layer control when the first visit saw it, else (or
// when that fails) by autoconsent when it found the banner in the first visit, else by our controls and the
// words (choices.ts) — and what the choice left behind read.
import type { BrowserContext } from 'playwright-core';
import { getDomain } from 'tldts';
import { findTraceTarget } from '../browser/analyze-trace.js';
import { captureChain, type CaptureOptions } from '../browser/capture.js';
import { closeContext } from '../browser/lease.js';
import type { BrowserLease } from '../browser/pool.js';
import { waitForPageQuiet } from '../browser/quiet.js';
import { chooseFirstLayer, chooseWithAutoconsent } from './autoconsent-choice.js';
import { startAutoconsent } from './autoconsent-session.js';
import { makeChoice, type ChoiceResult, type ConsentChoice } from './choices.js';
import type { ConsentDecision } from './decide.js';
import { isConsentCookie } from './rule-platform.js';
import { readScenario, type ScenarioResult } from './scenarios.js';

export interface ChoiceRun {
  result: ChoiceResult;
  scenario: ScenarioResult;
  /** The site stored cookies of its own after the choice (the banner's record of the choice not counted). */
  landingFirstPartyCookies: boolean;
}

export interface ChoiceSettings extends CaptureOptions {
  bannerWaitMs: number;
  afterChoiceMs: number;
}

// After a failed fast path, autoconsent still gets this long to find the banner (its rules poll every 500 ms).
const MIN_RULE_WAIT_MS = 2_000;

function siteOf(host: string): string {
  const bare = host.replace(/^\./, '').toLowerCase();
  return getDomain(bare, { allowPrivateDomains: true }) ?? bare;
}

/** Any cookie on the landing site other than the consent platform's own record of the choice. */
async function hasLandingCookies(context: BrowserContext, landingUrl: string, decision: ConsentDecision): Promise<boolean> {
  const site = siteOf(new URL(landingUrl).hostname);
  const facts = decision.facts;
  return (await context.cookies()).some(
    (cookie) => siteOf(cookie.domain) === site && (facts === null || !isConsentCookie(cookie.name, facts)),
  );
}

export async function runChoice(
  lease: BrowserLease,
  url: string,
  choice: ConsentChoice,
  decision: ConsentDecision,
  target: ReturnType<typeof findTraceTarget>,
  landingUrl: string,
  settings: ChoiceSettings,
  firstLayerSeen: boolean,
): Promise<ChoiceRun> {
  const context = await lease.newContext();
  try {
    const { trace, page } = await captureChain(context, lease.egress, url, settings);
    const name = choice === 'accept' ? 'accept_all' : 'reject_all';
    if (trace.end.reason !== 'landed') {
      return {
        result: { clicked: false, via: null },
        scenario: { scenario: name, clickIdPresent: false, attributionCookies: [] },
        landingFirstPartyCookies: false,
      };
    }
    let result: ChoiceResult;
    if (decision.rule === null) {
      result = await makeChoice(page, decision.catalogue, choice, settings.bannerWaitMs);
    } else {
      // The fast path: our first-layer control, as the first visit saw it; autoconsent (started only now,
      // so a page answered by the fast path never loads it) when that fails.
      const started = Date.now();
      result = firstLayerSeen
        ? await chooseFirstLayer(page, context, decision, choice, settings.bannerWaitMs)
        : { clicked: false, via: null };
      if (!result.clicked) {
        const session = await startAutoconsent(page);
        try {
          const waitMs = Math.max(MIN_RULE_WAIT_MS, settings.bannerWaitMs - (Date.now() - started));
          result = await chooseWithAutoconsent(page, context, session, decision, choice, waitMs);
        } finally {
          session.stop();
        }
      }
    }
    if (result.clicked) await waitForPageQuiet(page, settings.afterChoiceMs);
    return {
      result,
      scenario: await readScenario(name, page, context, target, landingUrl),
      landingFirstPartyCookies: await hasLandingCookies(context, landingUrl, decision),
    };
  } finally {
    await closeContext(context);
  }
}
