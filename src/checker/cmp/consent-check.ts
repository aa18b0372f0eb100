// A `cmp` check: follow the link in the browser, find the consent platform on the landing page, then run
// the three scenarios — no interaction, accept all, reject all — each in its own fresh context (one pool
// slot for all three), and judge what consent does to the attribution. Rules: docs/consent.md.
import type { BrowserContext } from 'playwright-core';
import { getDomain } from 'tldts';
import { analyzeTrace, findTraceTarget } from '../browser/analyze-trace.js';
import { captureChain, type CaptureOptions } from '../browser/capture.js';
import { closeContext } from '../browser/lease.js';
import type { BrowserLease, BrowserPool } from '../browser/pool.js';
import { waitForPageQuiet } from '../browser/quiet.js';
import { computeHealthScore, sortIssues } from '../score.js';
import type { CheckResult, ConsentResult } from '../types.js';
import { makeChoice, type ChoiceResult, type ConsentChoice } from './choices.js';
import { findConsentIssues } from './consent-findings.js';
import { platformRef } from './detect.js';
import { readScenario, waitForBanner, type ScenarioResult } from './scenarios.js';
import type { ConsentPlatformDefinition } from './types.js';

export interface ConsentCheckOptions extends CaptureOptions {
  /** How long to wait for a banner on the landing page. Default 5 s. */
  bannerWaitMs?: number;
  /** How long a click's consequences (tags firing, a reload) may take. Default 3 s. */
  afterChoiceMs?: number;
}

interface ChoiceRun {
  result: ChoiceResult;
  scenario: ScenarioResult;
  landingFirstPartyCookies: boolean;
}

const DEFAULTS = { bannerWaitMs: 5_000, afterChoiceMs: 3_000 };

function siteOf(host: string): string {
  const bare = host.replace(/^\./, '').toLowerCase();
  return getDomain(bare, { allowPrivateDomains: true }) ?? bare;
}

/** Any cookie (not only attribution ones) on the landing site: the banner let the site store something. */
async function hasLandingCookies(context: BrowserContext, landingUrl: string): Promise<boolean> {
  const site = siteOf(new URL(landingUrl).hostname);
  return (await context.cookies()).some((cookie) => siteOf(cookie.domain) === site);
}

/** One scenario with a choice: the chain again in a fresh context, then the click. */
async function runChoice(
  lease: BrowserLease,
  url: string,
  choice: ConsentChoice,
  platform: ConsentPlatformDefinition | null,
  target: ReturnType<typeof findTraceTarget>,
  landingUrl: string,
  settings: Required<Pick<ConsentCheckOptions, 'bannerWaitMs' | 'afterChoiceMs'>> & CaptureOptions,
): Promise<ChoiceRun> {
  const context = await lease.newContext();
  try {
    const { trace, page } = await captureChain(context, lease.egress, url, settings);
    const name = choice === 'accept' ? 'accept_all' : 'reject_all';
    if (trace.end.reason !== 'landed') {
      return { result: { clicked: false, via: null }, scenario: { scenario: name, clickIdPresent: false, attributionCookies: [] }, landingFirstPartyCookies: false };
    }
    const result = await makeChoice(page, platform, choice, settings.bannerWaitMs);
    if (result.clicked) await waitForPageQuiet(page, settings.afterChoiceMs);
    return {
      result,
      scenario: await readScenario(name, page, context, target, landingUrl),
      landingFirstPartyCookies: await hasLandingCookies(context, landingUrl),
    };
  } finally {
    await closeContext(context);
  }
}

export async function runConsentCheck(pool: BrowserPool, url: string, options: ConsentCheckOptions = {}, signal?: AbortSignal): Promise<CheckResult> {
  const settings = { ...DEFAULTS, ...options };
  return pool.withContext(async (lease) => {
    const first = await captureChain(lease.context, lease.egress, url, settings, lease.page);
    const base = analyzeTrace(url, first.trace, 'browser');
    const landingUrl = base.finalUrl;
    if (first.trace.end.reason !== 'landed' || landingUrl === null || base.finalStatus === null || base.finalStatus >= 400) {
      // No landing page, nothing to consent to: the chain's own issues tell the story.
      return { ...base, consent: { platform: null, scenarios: [] } };
    }
    const target = findTraceTarget(first.trace);
    const wait = await waitForBanner(first.page, settings.bannerWaitMs);
    const platform = wait.detected.platform;
    const noInteraction = await readScenario('no_interaction', first.page, lease.context, target, landingUrl);

    let accept: ChoiceRun | null = null;
    let reject: ChoiceRun | null = null;
    if (wait.bannerShown) {
      accept = await runChoice(lease, url, 'accept', platform, target, landingUrl, settings);
      reject = await runChoice(lease, url, 'reject', platform, target, landingUrl, settings);
    }
    // Nothing to click: the other two scenarios would be the same visit again.
    const acceptAll = accept?.scenario ?? { ...noInteraction, scenario: 'accept_all' as const };
    const rejectAll = reject?.scenario ?? { ...noInteraction, scenario: 'reject_all' as const };
    const ref = platformRef(wait.detected);
    const consent: ConsentResult = { platform: ref, scenarios: [noInteraction, acceptAll, rejectAll] };

    const consentIssues = findConsentIssues({
      platformName: ref?.name ?? null,
      bannerShown: wait.bannerShown,
      choices: { accept: accept?.result ?? null, reject: reject?.result ?? null },
      noInteraction,
      acceptAll,
      rejectAll,
      network: target?.ref.name ?? null,
      cookieNamesKnown: (target?.def?.cookieNames.length ?? 0) > 0,
      waitedSeconds: Math.round(wait.waitedMs / 100) / 10,
    });
    // A banner that holds every cookie back explains a missing first-party cookie better than the generic issue.
    const explained = wait.bannerShown && accept?.result.clicked === true && accept.landingFirstPartyCookies;
    const issues = sortIssues([...base.issues.filter((issue) => !(explained && issue.code === 'first_party_cookie_missing')), ...consentIssues]);
    const willTrack = base.willTrack && !consentIssues.some((issue) => issue.severity === 'critical');
    return { ...base, issues, willTrack, healthScore: computeHealthScore(issues, willTrack), consent };
  }, signal);
}
