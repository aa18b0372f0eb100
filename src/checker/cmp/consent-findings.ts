// What the three scenarios mean for the attribution: pure rules, no browser. Documented in docs/consent.md.
import { makeIssue, type IssueCode } from '../issues/catalogue.js';
import type { ConsentIssueDetails } from '../issues/consent.js';
import type { Issue } from '../types.js';
import type { ChoiceResult, ConsentChoice } from './choices.js';
import type { ScenarioResult } from './scenarios.js';

export interface ConsentObservation {
  /** Display name of the detected platform (`IAB TCF` included), null when none. */
  platformName: string | null;
  /** A banner (known, TCF or generic) showed a choice control. */
  bannerShown: boolean;
  /** Clicks attempted per choice; null = not attempted (nothing to click on the page). */
  choices: Record<ConsentChoice, ChoiceResult | null>;
  noInteraction: ScenarioResult;
  acceptAll: ScenarioResult;
  rejectAll: ScenarioResult;
  /** Display name of the network whose attribution is checked, null when no network was detected. */
  network: string | null;
  /** The network's catalogue entry names attribution cookies (else cookie rules cannot be judged). */
  cookieNamesKnown: boolean;
  waitedSeconds: number;
}

/** makeIssue with the consent details (a typed variable, so the extra fields pass to the catalogue). */
function consentIssue(code: IssueCode, details: ConsentIssueDetails): Issue {
  return makeIssue(code, details);
}

const hasCookies = (scenario: ScenarioResult): boolean => scenario.attributionCookies.length > 0;
const survives = (scenario: ScenarioResult): boolean => scenario.clickIdPresent || hasCookies(scenario);

function bannerIssues(obs: ConsentObservation, details: ConsentIssueDetails): Issue[] {
  if (obs.platformName === null && !obs.bannerShown) return [consentIssue('consent_banner_not_found', details)];
  if (!obs.bannerShown) return [consentIssue('consent_banner_not_shown', details)];
  const issues: Issue[] = [];
  for (const choice of ['accept', 'reject'] as const) {
    const result = obs.choices[choice];
    if (result !== null && !result.clicked) issues.push(consentIssue('consent_button_not_found', { ...details, choice }));
  }
  return issues;
}

export function findConsentIssues(obs: ConsentObservation): Issue[] {
  const details: ConsentIssueDetails = { platform: obs.platformName, network: obs.network, waitedSeconds: obs.waitedSeconds };
  const issues = bannerIssues(obs, details);
  if (obs.network === null || !obs.bannerShown) return issues;
  const accepted = obs.choices.accept?.clicked === true;
  const rejected = obs.choices.reject?.clicked === true;
  const { noInteraction: none, acceptAll: accept, rejectAll: reject } = obs;

  if (accepted && survives(none) && !survives(accept)) issues.push(consentIssue('attribution_lost_after_accept', details));
  if (!obs.cookieNamesKnown) return issues;
  if (hasCookies(none)) {
    issues.push(consentIssue('attribution_cookie_before_consent', { ...details, cookieNames: none.attributionCookies }));
  } else {
    if (accepted && hasCookies(accept))
      issues.push(consentIssue('attribution_blocked_until_consent', { ...details, cookieNames: accept.attributionCookies }));
    if (rejected && hasCookies(reject))
      issues.push(consentIssue('attribution_cookie_despite_reject', { ...details, cookieNames: reject.attributionCookies }));
  }
  if (rejected && accepted && hasCookies(accept) && !hasCookies(reject)) {
    issues.push(consentIssue('attribution_lost_on_reject', { ...details, cookieNames: accept.attributionCookies }));
  }
  return issues;
}
