// Invariants over random chains: the analysis never throws and its verdict, score and issues stay consistent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeChain } from '../../src/checker/analysis/analyze.js';
import { isIssueCode } from '../../src/checker/issues/catalogue.js';
import type { ChainEnd, ChainTrace, CookieRecord, Hop, HopKind } from '../../src/checker/types.js';
import { AWIN, BITLY, HOPLINK, MULTI, PARTNERIZE, SKIMLINKS, cookie, page } from './analyze-fixtures.js';

const urlArb = fc.oneof(
  fc.constantFrom(
    'https://www.awin1.com/cread.php?awinmid=1&ued=https%3A%2F%2Fshop.example.com%2Fp',
    'https://shop.example.com/p?awc=1',
    'https://shop.example.com/?awc={clickid}',
    'http://shop.example.com/en/',
    'https://go.skimresources.com/?url=https%3A%2F%2Fwww.awin1.com%2F',
    'https://shop.example.com/p?utm_source=x&gclid=y',
    'not a url',
    'https://shop.example.com/#awc=2',
  ),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
);

const hopArb: fc.Arbitrary<Hop> = fc.record({
  url: urlArb,
  status: fc.option(fc.constantFrom(200, 204, 301, 302, 307, 308, 403, 404, 429, 500, 503), { nil: null }),
  location: fc.constant(null),
  kind: fc.constantFrom<HopKind>('http', 'meta-refresh', 'javascript'),
  timeMs: fc.integer({ min: 0, max: 5000 }),
  network: fc.constant(null),
  paramsAdded: fc.constant([]),
  paramsRemoved: fc.constant([]),
  cookies: fc.constant([]),
  error: fc.constant(null),
});

const defArb = fc.option(fc.constantFrom(AWIN, SKIMLINKS, PARTNERIZE, BITLY, HOPLINK, MULTI), { nil: null });

const endArb = (hops: number): fc.Arbitrary<ChainEnd> => {
  const hop = fc.integer({ min: 0, max: hops - 1 });
  return fc.oneof(
    fc.constant({ reason: 'landed' as const }),
    hop.map((h) => ({ reason: 'redirect_loop' as const, hop: h })),
    hop.map((h) => ({ reason: 'too_many_redirects' as const, hop: h })),
    hop.map((h) => ({ reason: 'blocked_private_address' as const, hop: h, address: '10.0.0.1' })),
    hop.map((h) => ({ reason: 'unreachable' as const, hop: h, error: 'refused' })),
    hop.map((h) => ({ reason: 'check_timeout' as const, hop: h })),
  );
};

const cookieArb = (hops: number): fc.Arbitrary<CookieRecord> =>
  fc
    .record({
      name: fc.constantFrom('_aw_m_1', 'aw1', 'session', 'tid'),
      hop: fc.integer({ min: 0, max: hops - 1 }),
      firstParty: fc.boolean(),
      expiryDays: fc.option(fc.double({ min: -1, max: 400, noNaN: true }), { nil: null }),
    })
    .map((c) => cookie(c.name, c.hop, { firstParty: c.firstParty, expiryDays: c.expiryDays }));

const inputArb = fc.array(fc.tuple(hopArb, defArb), { minLength: 1, maxLength: 6 }).chain((pairs) =>
  fc.record({
    pairs: fc.constant(pairs),
    end: endArb(pairs.length),
    cookies: fc.array(cookieArb(pairs.length), { maxLength: 4 }),
    landing: fc.option(
      fc.record({
        botWall: fc.boolean(),
        scriptNavigation: fc.boolean(),
        availability: fc.constantFrom<'in_stock' | 'out_of_stock' | null>('in_stock', 'out_of_stock', null),
        title: fc.constantFrom('Shoe', 'Page not found', null),
      }),
      { nil: null },
    ),
    submittedUrl: urlArb,
  }),
);

describe('analyzeChain invariants', () => {
  it('holds for random chains', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const trace: ChainTrace = {
          hops: input.pairs.map(([hop]) => hop),
          end: input.end,
          landing: input.landing === null ? null : page(input.landing),
          cookies: input.cookies,
        };
        const result = analyzeChain({
          submittedUrl: input.submittedUrl,
          trace,
          hopNetworks: input.pairs.map(([, def]) => def),
          mode: 'http',
        });
        const critical = result.issues.some((issue) => issue.severity === 'critical');
        expect(Number.isInteger(result.healthScore)).toBe(true);
        expect(result.healthScore).toBeGreaterThanOrEqual(0);
        expect(result.healthScore).toBeLessThanOrEqual(100);
        if (critical) expect(result.healthScore).toBeLessThanOrEqual(40);
        else expect(result.healthScore).toBeGreaterThanOrEqual(45);
        if (result.willTrack) expect(critical).toBe(false);
        if (!result.willTrack) expect(result.healthScore).toBeLessThanOrEqual(60);
        const ranks = result.issues.map((issue) => ['critical', 'warning', 'info'].indexOf(issue.severity));
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
        for (const issue of result.issues) {
          expect(isIssueCode(issue.code)).toBe(true);
          if (issue.hop !== null) expect(issue.hop >= 0 && issue.hop < trace.hops.length).toBe(true);
        }
        expect(result.redirectCount).toBe(trace.hops.length - 1);
        expect(result.trackingParameters.present.length + result.trackingParameters.missing.length).toBe(
          result.trackingParameters.expected.length,
        );
      }),
      { numRuns: 500, seed: 20_240_611 },
    );
  });
});
