// assessPrivacy beyond survival: the shape and order of the result, cookie lifetimes per agent, and the two
// warnings with their wording.
import { describe, expect, it } from 'vitest';
import { assessPrivacy, PRIVACY_AGENT_IDS, PRIVACY_ISSUE_CODES } from '../../../src/checker/privacy/index.js';
import { chainOf, cookie } from './chains.js';

const AWIN = [
  'https://www.awin1.com/cread.php?awinmid=1&awinaffid=2&ued=https%3A%2F%2Fshop.example%2Fp',
  'https://shop.example/p?awc=1_abc&source=aw',
];
const lifetimes = (cookies: ReturnType<typeof cookie>[], urls = AWIN) =>
  Object.fromEntries(assessPrivacy(chainOf(urls, { cookies })).privacy.map((e) => [e.agent, e.cookieLifetimeDays]));

describe('the result', () => {
  it('has one entry per agent in the contract order, with the binding fields', () => {
    const { privacy } = assessPrivacy(chainOf(AWIN));
    expect(privacy.map((e) => e.agent)).toEqual([...PRIVACY_AGENT_IDS]);
    for (const entry of privacy) {
      expect(Object.keys(entry).sort()).toEqual(['agent', 'clickIdSurvives', 'cookieLifetimeDays', 'strippedParameters', 'trackerVisited']);
    }
  });
  it('an empty chain is harmless', () => {
    const { privacy, issues } = assessPrivacy({ hops: [], networkId: null, clickIdParams: [], landingUrl: null, cookies: [] });
    expect(privacy).toHaveLength(8);
    expect(issues).toEqual([]);
  });
});

describe('cookie lifetime', () => {
  it('Safari caps a script cookie to 1 day after a decorated landing from a network (ITP 2.2)', () => {
    // webkit.org/blog/8828: "persistent cookies set through document.cookie are capped to one day of storage" when
    // a classified domain navigated the user to a final URL with "a query string and/or a fragment identifier".
    expect(lifetimes([cookie('_aw_m_1', 365, 'script')])).toEqual({
      chrome: 365,
      safari: 1,
      safari_private: 1,
      firefox: 365,
      firefox_strict: 365,
      // No click id reaches the page for these agents, so the merchant has nothing to store.
      brave: null,
      adguard_url_tracking: null,
      clearurls: null,
    });
  });
  it('Safari caps a script cookie to 7 days without link decoration (ITP 2.1)', () => {
    // webkit.org/blog/8613: "all persistent client-side cookies, i.e. persistent cookies created through
    // document.cookie, are capped to a seven day expiry".
    const sovrn = ['https://redirect.viglink.com/?key=k&u=https%3A%2F%2Fwww.example-shop.com%2Fp', 'https://www.example-shop.com/p'];
    const days = lifetimes([cookie('vglnk', 90, 'script')], sovrn);
    expect([days.chrome, days.safari]).toEqual([90, 7]);
  });
  it('a server Set-Cookie is not capped; an unknown writer is treated as a script', () => {
    expect(lifetimes([cookie('_aw_m_1', 365, 'header')]).safari).toBe(365);
    expect(lifetimes([cookie('_aw_m_1', 365, null)]).safari).toBe(1);
  });
  it("only first-party cookies with the network's attribution names count", () => {
    expect(lifetimes([cookie('_ga', 400, 'script')]).chrome).toBeNull();
    expect(lifetimes([{ ...cookie('_aw_m_1', 365, 'header'), firstParty: false }]).chrome).toBeNull();
  });
});

describe('issues', () => {
  const { issues } = assessPrivacy(chainOf(AWIN));
  const [stripped, skipped] = issues;

  it('raises both warnings on the network hop', () => {
    expect(issues.map((i) => [i.code, i.severity, i.hop])).toEqual([
      ['click_id_stripped_by_privacy_tools', 'warning', 0],
      ['tracker_skipped_by_privacy_tools', 'warning', 0],
    ]);
    expect(issues.map((i) => i.code)).toEqual([...PRIVACY_ISSUE_CODES]);
  });
  it('names the agents in human words and says why each loses the click id', () => {
    expect(stripped?.description).toContain("Brave (default Shields) (never requests Awin's hop)");
    expect(stripped?.description).toContain('AdGuard URL Tracking filter (removes `awinaffid`, the publisher id');
    expect(stripped?.description).toContain('ClearURLs extension');
    expect(stripped?.description).not.toContain('Safari');
    expect(skipped?.description).toMatch(/^Brave \(default Shields\) and ClearURLs extension recognise Awin's deep link/);
  });
  it('gives fixes an affiliate can act on, never a way around the blocker', () => {
    expect(stripped?.fix).toMatch(/server-to-server \(S2S\) conversion API/);
    expect(stripped?.fix).toMatch(/HttpOnly/);
    expect(stripped?.fix).toMatch(/first-party tracking domain/);
    expect(skipped?.fix).toMatch(/direct link to the merchant/);
    for (const issue of issues) {
      expect(`${issue.fix} ${issue.description}`).not.toMatch(
        /evade|bypass|circumvent|obfuscat|disguise|rename the parameter|avoid detection/i,
      );
    }
  });
  it('says nothing when a default browser already loses the click id (the link itself is broken)', () => {
    const broken = assessPrivacy(chainOf([AWIN[0] ?? '', 'https://shop.example/p'])).issues;
    expect(broken.map((i) => i.code)).toEqual(['tracker_skipped_by_privacy_tools']);
  });
  it('lists a stripped click id without a skip when no agent skips the hop', () => {
    const impact = ['https://example-outdoor.sjv.io/c/1/2/3', 'https://shop.example-outdoor.com/b?irclickid=Wc9Qx1Uo'];
    const only = assessPrivacy(chainOf(impact)).issues;
    expect(only.map((i) => i.code)).toEqual(['click_id_stripped_by_privacy_tools']);
    expect(only[0]?.description).toContain('Brave (default Shields) (removes `irclickid`)');
  });
});

describe('cookie lifetime: standing cookies only', () => {
  it('a cookie deleted later in the chain does not count', () => {
    const deleted = { ...cookie('_aw_m_1', 0, 'header', 1), expiresAt: '1970-01-01T00:00:00.000Z' };
    expect(lifetimes([cookie('_aw_m_1', 365, 'header', 1), deleted]).chrome).toBeNull();
  });
});
