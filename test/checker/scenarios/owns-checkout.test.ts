// ClickBank and Digistore24 run the checkout, yet the vendor page must keep the landing id it receives
// (CONTRACT.md section 7): ClickBank's `hop` (with `hopId`/`tid` when ClickBank sends them), Digistore24's
// `aff`. A vendor page that drops it is broken like any other network's landing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../src/checker/types.js';
import { MERCHANT_PAGE } from '../../fixtures/scenarios/network-chains.js';
import { explain, issueCodes, startScenarioWeb, withoutTimingFinding, type ScenarioWeb } from '../../fixtures/scenarios/scenario-web.js';

let sw: ScenarioWeb;
beforeAll(async () => {
  sw = await startScenarioWeb();
});
beforeEach(() => sw.web.reset());
afterAll(async () => {
  await sw.close();
});

const check = async (url: string): Promise<CheckResult> => withoutTimingFinding(await sw.check(url));
const HOP_ID = '9b7d4c2a-1f3e-4a6b-8c5d-2e1f0a9b8c7d';

/** HopLink → vendor page (with ClickBank's landing id) → optionally the vendor's own redirect to `final`. */
function clickBankChain(vendorLanding: string, final: string | null): string {
  sw.web.redirect('examplepub.examplevend.hop.clickbank.net', '/', sw.https('www.example-course.com', vendorLanding));
  if (final === null) sw.web.page('www.example-course.com', '/', MERCHANT_PAGE);
  else {
    sw.web.redirect('www.example-course.com', '/', sw.https('www.example-course.com', final));
    sw.web.page('www.example-course.com', final.split('?')[0] ?? '/', MERCHANT_PAGE);
  }
  return sw.https('examplepub.examplevend.hop.clickbank.net', '/?tid=guide');
}

describe('ClickBank: hop, with hopId and tid when sent', () => {
  it('tracks when the vendor page keeps all three', async () => {
    const result = await check(clickBankChain(`/?hop=examplepub&hopId=${HOP_ID}&tid=guide`, null));
    expect(result.willTrack, explain(result)).toBe(true);
    expect(result.trackingParameters).toEqual({ expected: ['hop', 'hopId', 'tid'], present: ['hop', 'hopId', 'tid'], missing: [] });
    expect(result.trackingParameterPresent).toBe(true);
  });

  it('is tracking_parameter_stripped when the vendor redirects to a page without hop', async () => {
    const result = await check(clickBankChain(`/?hop=examplepub&hopId=${HOP_ID}&tid=guide`, '/sales-letter'));
    expect(result.willTrack, explain(result)).toBe(false);
    expect(issueCodes(result)).toContain('tracking_parameter_stripped');
    expect(result.issues.find((issue) => issue.code === 'tracking_parameter_stripped')?.hop).toBe(1);
    expect(result.trackingParameters.missing).toEqual(['hop', 'hopId', 'tid']);
  });

  it('is tracking_parameter_stripped when hop survives but the hopId and tid ClickBank sent do not', async () => {
    const result = await check(clickBankChain(`/?hop=examplepub&hopId=${HOP_ID}&tid=guide`, '/sales-letter?hop=examplepub'));
    expect(result.willTrack, explain(result)).toBe(false);
    const stripped = result.issues.find((issue) => issue.code === 'tracking_parameter_stripped');
    expect(stripped?.severity).toBe('critical');
    expect(stripped?.description).toMatch(/hopId/);
    expect(result.trackingParameters).toEqual({ expected: ['hop', 'hopId', 'tid'], present: ['hop'], missing: ['hopId', 'tid'] });
  });

  it('asks only for hop when ClickBank sent nothing else', async () => {
    const result = await check(clickBankChain('/?hop=examplepub', null));
    expect(result.willTrack, explain(result)).toBe(true);
    expect(result.trackingParameters).toEqual({ expected: ['hop'], present: ['hop'], missing: [] });
  });

  it('is tracking_parameter_missing when ClickBank lands on the vendor page without hop', async () => {
    const result = await check(clickBankChain('/', null));
    expect(result.willTrack, explain(result)).toBe(false);
    expect(issueCodes(result)).toContain('tracking_parameter_missing');
  });
});

describe('Digistore24: aff', () => {
  function digistoreChain(vendorLanding: string): string {
    sw.web.redirect('www.digistore24.com', '/redir/123456/examplepub/guide', sw.https('www.example-kurs.de', vendorLanding));
    sw.web.page('www.example-kurs.de', '/', MERCHANT_PAGE);
    return sw.https('www.digistore24.com', '/redir/123456/examplepub/guide');
  }

  it('tracks with aff on the vendor page, and is tracking_parameter_missing without it', async () => {
    const kept = await check(digistoreChain('/?aff=examplepub&cam=guide'));
    expect(kept.willTrack, explain(kept)).toBe(true);
    expect(kept.trackingParameters).toEqual({ expected: ['aff'], present: ['aff'], missing: [] });
    sw.web.reset();
    const dropped = await check(digistoreChain('/'));
    expect(dropped.willTrack, explain(dropped)).toBe(false);
    expect(issueCodes(dropped)).toContain('tracking_parameter_missing');
  });
});
