// A `cmp` check: follow the link in the browser, find the consent platform on the landing page, then run
// the three scenarios — no interaction, accept all, reject all — each in its own fresh context (one pool
// slot for all three; accept and reject run at the same time), and judge what consent does to the
// attribution. Rules: docs/consent.md.
import { analyzeTrace, findTraceTarget } from '../browser/analyze-trace.js';
import { captureChain, type CaptureOptions } from '../browser/capture.js';
import { closeContext } from '../browser/lease.js';
import type { BrowserPool } from '../browser/pool.js';
import { computeHealthScore, sortIssues } from '../analysis/score.js';
import type { CheckResult, ConsentResult } from '../types.js';
import { autoconsentAssets } from './autoconsent-assets.js';
import { startAutoconsent, type AutoconsentSession } from './autoconsent-session.js';
import { runChoice, type ChoiceRun } from './choice-scenario.js';
import { firstLayerControl, type ConsentChoice } from './choices.js';
import { findConsentIssues } from './consent-findings.js';
import { decideConsent } from './decide.js';
import { readScenario, waitForBanner } from './scenarios.js';

export interface ConsentCheckOptions extends CaptureOptions {
  /** How long to wait for a banner on the landing page. Default 5 s. */
  bannerWaitMs?: number;
  /** How long a click's consequences (tags firing, a reload) may take. Default 3 s. */
  afterChoiceMs?: number;
}

const DEFAULTS = { bannerWaitMs: 5_000, afterChoiceMs: 3_000 };

export async function runConsentCheck(
  pool: BrowserPool,
  url: string,
  options: ConsentCheckOptions = {},
  signal?: AbortSignal,
): Promise<CheckResult> {
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
    // autoconsent watches the landing page only (never the hops before it), and only reports here.
    const session: AutoconsentSession = await startAutoconsent(first.page);
    const wait = await waitForBanner(first.page, settings.bannerWaitMs, session);
    session.stop();
    const decision = decideConsent(wait.detected, wait.rule, autoconsentAssets().siteSpecific);
    // Where autoconsent answers, which choices our catalogue's first-layer controls can answer first (seen here).
    const fastPath = async (choice: ConsentChoice): Promise<boolean> =>
      decision.rule !== null &&
      decision.catalogue !== null &&
      wait.bannerShown &&
      (await firstLayerControl(first.page, decision.catalogue, choice)) !== null;
    const [noInteraction, acceptFirstLayer, rejectFirstLayer] = await Promise.all([
      readScenario('no_interaction', first.page, lease.context, target, landingUrl),
      fastPath('accept'),
      fastPath('reject'),
    ]);

    // Nothing more is read from the first visit: its page (and autoconsent's detection still polling there when
    // it found no banner) goes now instead of competing with the two choice visits for the CPU.
    const firstClosed = closeContext(lease.context);

    let accept: ChoiceRun | null = null;
    let reject: ChoiceRun | null = null;
    if (wait.bannerShown) {
      // Independent visits in contexts of their own: no reason to wait for one before starting the other.
      [accept, reject] = await Promise.all([
        runChoice(lease, url, 'accept', decision, target, landingUrl, settings, acceptFirstLayer),
        runChoice(lease, url, 'reject', decision, target, landingUrl, settings, rejectFirstLayer),
      ]);
    }
    await firstClosed;
    // Nothing to click: the other two scenarios would be the same visit again.
    const acceptAll = accept?.scenario ?? { ...noInteraction, scenario: 'accept_all' as const };
    const rejectAll = reject?.scenario ?? { ...noInteraction, scenario: 'reject_all' as const };
    const ref = decision.platform;
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
    const issues = sortIssues([
      ...base.issues.filter((issue) => !(explained && issue.code === 'first_party_cookie_missing')),
      ...consentIssues,
    ]);
    const willTrack = base.willTrack && !consentIssues.some((issue) => issue.severity === 'critical');
    return { ...base, issues, willTrack, healthScore: computeHealthScore(issues, willTrack), consent };
  }, signal);
}
