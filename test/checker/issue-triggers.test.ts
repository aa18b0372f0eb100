// Every link-check code is raised by a minimal hand-built chain, points at the right hop, and is absent from
// the healthy chain. The Record type makes the compiler demand a trigger for every code. Consent codes come
// from the browser's consent scenarios, not from analyzeChain: test/checker/cmp covers them; the privacy-tool
// codes come from the privacy catalogue, and test/checker/privacy covers them.
import { describe, expect, it } from 'vitest';
import { ISSUE_CODES, type IssueCode } from '../../src/checker/issues/catalogue.js';
import { CONSENT_ISSUES } from '../../src/checker/issues/consent.js';
import { ENGINE_ISSUES } from '../../src/checker/issues/engine.js';
import { PRIVACY_ISSUES } from '../../src/checker/issues/privacy.js';

type LinkIssueCode = Exclude<IssueCode, keyof typeof CONSENT_ISSUES | keyof typeof ENGINE_ISSUES | keyof typeof PRIVACY_ISSUES>;
const LINK_ISSUE_CODES = ISSUE_CODES.filter((code) => !(code in CONSENT_ISSUES) && !(code in ENGINE_ISSUES) && !(code in PRIVACY_ISSUES));
import {
  AWIN,
  AWIN_LINK,
  LANDING,
  SKIMLINKS,
  codes,
  cookie,
  healthy,
  hop,
  page,
  redirect,
  run,
  type Scenario,
} from './analyze-fixtures.js';

const SHOP_ROOT = 'https://shop.example.com/';
const WITH_AWC = `${LANDING}?awc=1_abc`;

/** Healthy chain with the landing hop and/or page facts changed. */
function healthyWith(landingHop: Partial<Parameters<typeof hop>[1]>, landing = page()): Scenario {
  const h = healthy();
  return { ...h, hops: [h.hops[0] ?? hop(AWIN_LINK), hop(WITH_AWC, landingHop)], landing };
}

/** Awin → merchant URL carrying awc (hop 1, redirects) → landing without awc (hop 2). */
function strippedChain(extraCookies: ReturnType<typeof cookie>[] = []): Scenario {
  return {
    hops: [redirect(AWIN_LINK, WITH_AWC), redirect(WITH_AWC, LANDING, { status: 301 }), hop(LANDING)],
    defs: [AWIN, null, null],
    cookies: [cookie('aw1', 0, { firstParty: false }), cookie('session', 2), ...extraCookies],
  };
}

function interstitial(kind: 'meta-refresh' | 'javascript'): Scenario {
  const h = healthy();
  const middle = 'https://shop.example.com/go';
  return {
    ...h,
    hops: [redirect(AWIN_LINK, `${middle}?awc=1_abc`), hop(`${middle}?awc=1_abc`), hop(WITH_AWC, { kind })],
    defs: [AWIN, null, null],
    cookies: [cookie('aw1', 0, { firstParty: false }), cookie('_aw_m_1', 2)],
  };
}

const TRIGGERS: Record<LinkIssueCode, { scenario: () => Scenario; hop: number | null }> = {
  landing_error_status: { scenario: () => healthyWith({ status: 404 }), hop: 1 },
  landing_unreachable: {
    scenario: () => ({
      ...healthy(),
      hops: [redirect(AWIN_LINK, WITH_AWC), hop(WITH_AWC, { status: null, error: 'connection refused' })],
      end: { reason: 'unreachable', hop: 1, error: 'connection refused' },
      landing: null,
    }),
    hop: 1,
  },
  landing_timeout: {
    scenario: () => ({
      ...healthy(),
      hops: [redirect(AWIN_LINK, WITH_AWC), hop(WITH_AWC, { status: null, error: 'connection reset' })],
      end: { reason: 'unreachable', hop: 1, error: 'connection reset' },
      landing: null,
    }),
    hop: 1,
  },
  redirect_loop: {
    scenario: () => ({
      hops: [redirect(AWIN_LINK, WITH_AWC), redirect(WITH_AWC, `${LANDING}/`), redirect(`${LANDING}/`, WITH_AWC)],
      defs: [AWIN, null, null],
      end: { reason: 'redirect_loop', hop: 2 },
      landing: null,
    }),
    hop: 2,
  },
  too_many_redirects: {
    scenario: () => ({
      hops: [redirect(AWIN_LINK, WITH_AWC), redirect(WITH_AWC, `${WITH_AWC}&n=1`), redirect(`${WITH_AWC}&n=1`, `${WITH_AWC}&n=2`)],
      defs: [AWIN, null, null],
      end: { reason: 'too_many_redirects', hop: 2 },
      landing: null,
    }),
    hop: 2,
  },
  blocked_private_address: {
    scenario: () => ({
      hops: [redirect(AWIN_LINK, 'https://intranet.shop.example.com/'), hop('https://intranet.shop.example.com/', { status: null })],
      defs: [AWIN, null],
      end: { reason: 'blocked_private_address', hop: 1, address: '10.0.0.7' },
      landing: null,
    }),
    hop: 1,
  },
  broken_redirect: { scenario: () => healthyWith({ status: 302, location: null }), hop: 1 },
  homepage_fallback: {
    scenario: () => ({
      ...healthy(),
      hops: [redirect(AWIN_LINK, WITH_AWC), redirect(WITH_AWC, `${SHOP_ROOT}?awc=1_abc`), hop(`${SHOP_ROOT}?awc=1_abc`)],
      defs: [AWIN, null, null],
    }),
    hop: 1,
  },
  could_not_verify: { scenario: () => healthyWith({ status: 403 }, page({ botWall: true })), hop: 1 },
  script_redirect_unresolved: { scenario: () => healthyWith({}, page({ scriptNavigation: true })), hop: 1 },
  soft_404: { scenario: () => healthyWith({}, page({ title: 'Page not found – Shop' })), hop: 1 },
  out_of_stock: { scenario: () => healthyWith({}, page({ availability: 'out_of_stock' })), hop: 1 },
  tracking_parameter_stripped: { scenario: () => strippedChain(), hop: 1 },
  tracking_parameter_missing: {
    scenario: () => ({ hops: [redirect(AWIN_LINK, LANDING), hop(LANDING)], defs: [AWIN, null], cookies: [cookie('session', 1)] }),
    hop: null,
  },
  tracking_parameter_stripped_cookie_set: { scenario: () => strippedChain([cookie('_aw_m_1', 1)]), hop: 1 },
  click_id_mismatch: {
    scenario: () => ({
      ...healthy(),
      hops: [redirect(AWIN_LINK, `${LANDING}?awc=A`), redirect(`${LANDING}?awc=A`, `${LANDING}?awc=B`), hop(`${LANDING}?awc=B`)],
      defs: [AWIN, null, null],
    }),
    hop: 1,
  },
  parameter_lost: {
    scenario: () => {
      const h = healthy();
      const submitted = `${AWIN_LINK}&utm_source=newsletter&gclid=Cj0abc`;
      return { ...h, submittedUrl: submitted, hops: [redirect(submitted, WITH_AWC), hop(WITH_AWC)] };
    },
    hop: 0,
  },
  first_party_cookie_missing: { scenario: () => ({ ...healthy(), cookies: [cookie('aw1', 0, { firstParty: false })] }), hop: null },
  third_party_cookie_missing: { scenario: () => ({ ...healthy(), cookies: [cookie('_aw_m_1', 1)] }), hop: null },
  stacked_networks: {
    scenario: () => {
      const h = healthy();
      const skim = `https://go.skimresources.com/?id=1&url=${encodeURIComponent(AWIN_LINK)}`;
      return { ...h, hops: [redirect(skim, AWIN_LINK), ...h.hops], defs: [SKIMLINKS, AWIN, null] };
    },
    hop: null,
  },
  permanent_redirect: { scenario: () => ({ ...healthy(), hops: [redirect(AWIN_LINK, WITH_AWC, { status: 301 }), hop(WITH_AWC)] }), hop: 0 },
  unresolved_macro: {
    scenario: () => {
      const link = `${AWIN_LINK}&clickref={subid}`;
      return { ...healthy(), hops: [redirect(link, WITH_AWC), hop(WITH_AWC)] };
    },
    hop: 0,
  },
  insecure_hop: {
    scenario: () => {
      const plain = WITH_AWC.replace('https:', 'http:');
      return {
        ...healthy(),
        hops: [redirect(AWIN_LINK, plain), redirect(plain, WITH_AWC, { status: 307 }), hop(WITH_AWC)],
        defs: [AWIN, null, null],
      };
    },
    hop: 1,
  },
  slow_redirect_chain: {
    scenario: () => ({ ...healthy(), hops: [redirect(AWIN_LINK, WITH_AWC, { timeMs: 1500 }), hop(WITH_AWC)] }),
    hop: 0,
  },
  meta_refresh_redirect: { scenario: () => interstitial('meta-refresh'), hop: 1 },
  javascript_redirect: { scenario: () => interstitial('javascript'), hop: 1 },
  no_network_detected: { scenario: () => ({ hops: [hop(LANDING)], cookies: [cookie('session', 0)] }), hop: null },
};

describe('issue triggers', () => {
  it('the healthy chain raises nothing', () => {
    expect(codes(run(healthy()))).toEqual([]);
  });

  it('there is a trigger for every link-check code of the catalogue', () => {
    expect(Object.keys(TRIGGERS).sort()).toEqual([...LINK_ISSUE_CODES].sort());
  });

  for (const [code, { scenario, hop: expectedHop }] of Object.entries(TRIGGERS)) {
    it(`${code} is raised once, at hop ${String(expectedHop)}`, () => {
      const result = run(scenario());
      const raised = result.issues.filter((issue) => issue.code === code);
      expect(raised, `issues: ${codes(result).join(', ')}`).toHaveLength(1);
      expect(raised[0]?.hop).toBe(expectedHop);
      expect(raised[0]?.description.length).toBeGreaterThan(20);
      expect(raised[0]?.fix.length).toBeGreaterThan(20);
    });
  }
});
