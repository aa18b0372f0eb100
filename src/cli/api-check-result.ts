// A check as the API returns it → the engine's CheckResult, so remote checks and reports print with the very
// same formatter as local ones (report-text.ts). Null while the check has no verdict.
import type { Check } from '../client/index.js';
import type { CheckResult } from '../checker/types.js';

export function toCheckResult(check: Check): CheckResult | null {
  if (check.status !== 'completed' || check.willTrack === null || check.healthScore === null) return null;
  return {
    willTrack: check.willTrack,
    healthScore: check.healthScore,
    network: check.network,
    networkId: check.networkId,
    networks: check.networks,
    finalUrl: check.finalUrl,
    finalStatus: check.finalStatus,
    redirectCount: check.redirectCount ?? Math.max(0, check.hops.length - 1),
    totalRedirectTimeMs: check.totalRedirectTimeMs ?? 0,
    hops: check.hops,
    trackingParameterPresent: check.trackingParameterPresent ?? false,
    trackingParameters: check.trackingParameters ?? { expected: [], present: [], missing: [] },
    firstPartyCookieSet: check.firstPartyCookieSet ?? false,
    thirdPartyCookieSet: check.thirdPartyCookieSet ?? false,
    cookieExpiryDays: check.cookieExpiryDays,
    cookies: check.cookies,
    issues: check.issues,
    mode: check.mode ?? 'http',
    consent: check.consent,
    privacy: check.privacy ?? null,
  };
}
