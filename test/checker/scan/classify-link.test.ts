import { describe, expect, it } from 'vitest';
import { classifyLink, CLOAKED_PATH_PREFIXES, MAX_CHECKED_LINKS, selectLinksToCheck } from '../../../src/checker/scan/classify-link.js';
import type { PageLink } from '../../../src/checker/scan/extract-links.js';
import { NETWORK_LINK_FIXTURES } from '../../fixtures/network-links.js';
import { AMAZON_LINK, AMZN_SHORT_LINK, AWIN_LINK, CJ_LINK, SHAREASALE_LINK, SKIMLINKS_LINK } from './scan-fixtures.js';

const PAGE = 'https://www.example-blog.com/reviews/running-shoes/';

function link(url: string): PageLink {
  return { url, text: url, rel: [] };
}

describe('classifyLink: catalogue hosts', () => {
  it.each([
    [AWIN_LINK, 'network', 'awin'],
    [SHAREASALE_LINK, 'network', 'shareasale'],
    [CJ_LINK, 'network', 'cj'],
    [AMAZON_LINK, 'network', 'amazon'],
    [SKIMLINKS_LINK, 'aggregator', 'skimlinks'],
    ['https://redirect.viglink.com/?key=abc&u=https%3A%2F%2Fshop.example.com', 'aggregator', 'sovrn'],
    [AMZN_SHORT_LINK, 'shortener', 'amazon_short'],
    ['https://bit.ly/3AbCdEf', 'shortener', 'bitly'],
    // A signature parameter names the programme on the merchant's own host.
    ['https://www.example-skincare.com/products/night-cream?rfsn=5012345.6a7b8c', 'network', 'refersion'],
  ])('%s → %s %s', (url, reason, networkId) => {
    expect(classifyLink(url, PAGE)).toEqual({ reason, networkId });
  });

  it('recognises every network fixture whose link the catalogue detects', () => {
    for (const fixture of NETWORK_LINK_FIXTURES.filter((f) => f.detection === 'link')) {
      expect(classifyLink(fixture.link, PAGE), fixture.id).not.toBeNull();
    }
  });

  it('leaves ordinary links alone, including a merchant host without its programme parameter', () => {
    for (const url of [
      'https://www.amazon.com/dp/B0EXAMPLE12',
      'https://www.example-shoes.co.uk/trainers/running',
      'https://twitter.com/intent/tweet?url=x',
      'https://www.example-blog.com/about/',
    ]) {
      expect(classifyLink(url, PAGE), url).toBeNull();
    }
  });

  it('ignores what is not an absolute http(s) URL', () => {
    expect(classifyLink('mailto:x@amzn.to', PAGE)).toBeNull();
    expect(classifyLink('/go/x', PAGE)).toBeNull();
  });
});

describe('classifyLink: same-site cloaked paths', () => {
  it.each(CLOAKED_PATH_PREFIXES.map((prefix) => [prefix]))('/%s/<slug> on the page site is cloaked', (prefix) => {
    expect(classifyLink(`https://www.example-blog.com/${prefix}/nike-pegasus`, PAGE)).toEqual({ reason: 'cloaked', networkId: null });
  });

  it.each([
    'https://www.example-blog.com/recommends/nike-pegasus-41/',
    'https://example-blog.com/go/nike-pegasus',
    'https://deals.example-blog.com/out/amazon?ref=sidebar',
    'http://www.example-blog.com/Go/Nike',
  ])('%s is cloaked (same registrable domain)', (url) => {
    expect(classifyLink(url, PAGE)?.reason).toBe('cloaked');
  });

  it.each([
    // Another site's cloaked links are that site's business; its network shows in our own catalogue if any.
    'https://www.other-blog.com/go/nike-pegasus',
    'https://example-blog.com.evil.example/go/x',
    // The bare prefix is an index page, and a longer first segment is not the prefix.
    'https://www.example-blog.com/go/',
    'https://www.example-blog.com/go',
    'https://www.example-blog.com/goods/shoes',
    'https://www.example-blog.com/blog/go/x',
  ])('%s is not cloaked', (url) => {
    expect(classifyLink(url, PAGE)).toBeNull();
  });

  it('treats private suffixes as separate sites (alice.github.io is not bob.github.io)', () => {
    expect(classifyLink('https://bob.github.io/go/x', 'https://alice.github.io/post')).toBeNull();
    expect(classifyLink('https://alice.github.io/go/x', 'https://alice.github.io/post')?.reason).toBe('cloaked');
  });

  it('prefers the catalogue when a same-site link carries a network signature', () => {
    expect(classifyLink('https://www.example-blog.com/go/x?rfsn=1.2', PAGE)).toEqual({ reason: 'network', networkId: 'refersion' });
  });
});

describe('selectLinksToCheck', () => {
  it('keeps page order and the links themselves, dropping the rest', () => {
    const links = [
      link('https://www.example-blog.com/about/'),
      { url: SKIMLINKS_LINK, text: 'Skim', rel: ['sponsored'] },
      link('https://www.example-blog.com/go/nike'),
      link('https://twitter.com/share'),
      link(AWIN_LINK),
    ];
    expect(selectLinksToCheck(links, PAGE)).toEqual([
      { url: SKIMLINKS_LINK, text: 'Skim', rel: ['sponsored'], reason: 'aggregator', networkId: 'skimlinks' },
      { ...link('https://www.example-blog.com/go/nike'), reason: 'cloaked', networkId: null },
      { ...link(AWIN_LINK), reason: 'network', networkId: 'awin' },
    ]);
  });

  it('checks at most 500 links by default, or the given maximum', () => {
    const links = Array.from({ length: 800 }, (_, i) => link(`https://amzn.to/${i}`));
    const selected = selectLinksToCheck(links, PAGE);
    expect(selected).toHaveLength(MAX_CHECKED_LINKS);
    expect(selected.at(-1)?.url).toBe('https://amzn.to/499');
    expect(selectLinksToCheck(links, PAGE, 3).map((l) => l.url)).toEqual(['https://amzn.to/0', 'https://amzn.to/1', 'https://amzn.to/2']);
  });
});
