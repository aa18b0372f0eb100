import { describe, expect, it } from 'vitest';
import { type CheckedPageLink, findPageLinkFindings, type LinkOutcome } from '../../../src/checker/scan/page-findings.js';
import type { CheckResult } from '../../../src/checker/types.js';
import { AMAZON_LINK, AMZN_SHORT_LINK, AWIN_LINK, CJ_LINK, networkFixture, SHAREASALE_LINK, SKIMLINKS_LINK } from './scan-fixtures.js';

const SHOES_LANDING = networkFixture('awin').landing; // www.example-shoes.co.uk
const OUTDOOR_LANDING = networkFixture('shareasale').landing; // www.example-outdoor.com
const CJ_OUTDOOR_LANDING = networkFixture('cj').landing; // www.example-outdoor.com too
const AMAZON_LANDING = 'https://www.amazon.com/dp/B0EXAMPLE12?tag=examplepub-20';

function checked(url: string, outcome: LinkOutcome | null, rel: string[] = ['sponsored']): CheckedPageLink {
  return { url, rel, outcome };
}

function codes(links: CheckedPageLink[]): string[] {
  return findPageLinkFindings(links).map((finding) => finding.code);
}

describe('merchant_multiple_networks', () => {
  it('flags one merchant reached through ShareASale and CJ on the same page', () => {
    const links = [
      checked(SHAREASALE_LINK, { networkId: 'shareasale', finalUrl: OUTDOOR_LANDING }),
      checked(AWIN_LINK, { networkId: 'awin', finalUrl: SHOES_LANDING }),
      checked(CJ_LINK, { networkId: 'cj', finalUrl: CJ_OUTDOOR_LANDING }),
    ];
    const [finding, ...rest] = findPageLinkFindings(links);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ code: 'merchant_multiple_networks', severity: 'info', links: [SHAREASALE_LINK, CJ_LINK] });
    expect(finding?.description).toContain('example-outdoor.com');
    expect(finding?.description).toContain('ShareASale');
    expect(finding?.title.length).toBeGreaterThan(0);
    expect(finding?.fix.length).toBeGreaterThan(0);
  });

  it('groups by registrable domain: www.shop and shop.shop are one merchant', () => {
    const links = [
      checked(AWIN_LINK, { networkId: 'awin', finalUrl: 'https://www.example-shoes.co.uk/trainers' }),
      checked(CJ_LINK, { networkId: 'cj', finalUrl: 'https://shop.example-shoes.co.uk/trainers' }),
    ];
    expect(findPageLinkFindings(links)[0]?.links).toEqual([AWIN_LINK, CJ_LINK]);
  });

  it('is silent for one network used several times (a short link and a full Amazon link)', () => {
    const links = [
      checked(AMZN_SHORT_LINK, { networkId: 'amazon', finalUrl: AMAZON_LANDING }),
      checked(AMAZON_LINK, { networkId: 'amazon', finalUrl: AMAZON_LANDING }),
    ];
    expect(codes(links)).toEqual([]);
  });

  it('does not count an aggregator, unfinished checks or links without a network as a second network', () => {
    const links = [
      checked(AWIN_LINK, { networkId: 'awin', finalUrl: SHOES_LANDING }),
      checked(SKIMLINKS_LINK, { networkId: null, networks: [{ id: 'skimlinks', role: 'aggregator' }], finalUrl: SHOES_LANDING }),
      checked(CJ_LINK, null),
      checked('https://www.example-blog.com/go/shoes', { networkId: 'cj', finalUrl: null }),
    ];
    expect(codes(links)).toEqual([]);
  });

  it('reports each merchant separately, in page order', () => {
    const links = [
      checked(AWIN_LINK, { networkId: 'awin', finalUrl: SHOES_LANDING }),
      checked(SHAREASALE_LINK, { networkId: 'shareasale', finalUrl: OUTDOOR_LANDING }),
      checked('https://www.example-blog.com/go/shoes', { networkId: 'cj', finalUrl: SHOES_LANDING }),
      checked(CJ_LINK, { networkId: 'cj', finalUrl: CJ_OUTDOOR_LANDING }),
    ];
    const findings = findPageLinkFindings(links);
    expect(findings.map((f) => f.links)).toEqual([
      [AWIN_LINK, 'https://www.example-blog.com/go/shoes'],
      [SHAREASALE_LINK, CJ_LINK],
    ]);
  });
});

describe('sponsored_rel_missing', () => {
  it('lists affiliate links without rel=sponsored, noting those that have nofollow', () => {
    const links = [
      checked(AWIN_LINK, { networkId: 'awin', finalUrl: SHOES_LANDING }, ['sponsored', 'nofollow']),
      checked(SHAREASALE_LINK, { networkId: 'shareasale', finalUrl: OUTDOOR_LANDING }, []),
      checked(SKIMLINKS_LINK, { networkId: null, networks: [{ id: 'skimlinks', role: 'aggregator' }], finalUrl: SHOES_LANDING }, [
        'nofollow',
      ]),
    ];
    const findings = findPageLinkFindings(links);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ code: 'sponsored_rel_missing', severity: 'info', links: [SHAREASALE_LINK, SKIMLINKS_LINK] });
    expect(findings[0]?.description).toContain('2 affiliate links lack rel="sponsored"');
    expect(findings[0]?.description).toContain('1 of them has nofollow');
    expect(findings[0]?.description).toContain('https://developers.google.com/search/docs/crawling-indexing/qualify-outbound-links');
  });

  it('ignores links whose check found no network or aggregator, or did not complete', () => {
    const links = [
      checked(
        'https://bit.ly/3AbCdEf',
        { networkId: null, networks: [{ id: 'bitly', role: 'shortener' }], finalUrl: 'https://www.example.org/' },
        [],
      ),
      checked('https://www.example-blog.com/go/x', { networkId: null, finalUrl: 'https://www.example.org/' }, []),
      checked(AWIN_LINK, null, []),
    ];
    expect(codes(links)).toEqual([]);
  });

  it('takes a CheckResult as the outcome as it is', () => {
    const result: Pick<CheckResult, 'networkId' | 'networks' | 'finalUrl'> = {
      networkId: 'awin',
      networks: [{ id: 'awin', name: 'Awin', role: 'network' }],
      finalUrl: SHOES_LANDING,
    };
    expect(codes([checked(AWIN_LINK, result, [])])).toEqual(['sponsored_rel_missing']);
  });

  it('is silent on a page with no links', () => {
    expect(findPageLinkFindings([])).toEqual([]);
  });
});
