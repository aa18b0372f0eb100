import { describe, expect, it } from 'vitest';
import { extractLinks, MAX_PAGE_LINKS } from '../../../src/checker/scan/extract-links.js';
import { AMZN_SHORT_LINK, attr, AWIN_LINK, SHAREASALE_LINK } from './scan-fixtures.js';

const PAGE = 'https://www.example-blog.com/reviews/running-shoes/';

function urls(html: string, page = PAGE): string[] {
  return extractLinks(html, page).links.map((link) => link.url);
}

function only(html: string) {
  const { links } = extractLinks(html, PAGE);
  expect(links).toHaveLength(1);
  return links[0];
}

describe('extractLinks: resolution', () => {
  it('resolves relative, root-relative, scheme-relative and query-only hrefs against the page URL', () => {
    const html = `
      <a href="pegasus-41">a</a> <a href="../../go/nike">b</a> <a href="/about">c</a>
      <a href="//cdn.example-shop.com/p">d</a> <a href="?page=2">e</a> <a href="  ${attr(AWIN_LINK)}  ">f</a>`;
    expect(urls(html)).toEqual([
      'https://www.example-blog.com/reviews/running-shoes/pegasus-41',
      'https://www.example-blog.com/go/nike',
      'https://www.example-blog.com/about',
      'https://cdn.example-shop.com/p',
      'https://www.example-blog.com/reviews/running-shoes/?page=2',
      AWIN_LINK,
    ]);
  });

  it('decodes entities in hrefs, keeping a legacy name like &region that browsers leave alone in attributes', () => {
    const html = `<a href="${attr(SHAREASALE_LINK)}">s</a><a href="https://shop.example.com/?a=1&region=uk&copy=2">r</a>`;
    expect(urls(html)).toEqual([SHAREASALE_LINK, 'https://shop.example.com/?a=1&region=uk&copy=2']);
  });

  it('honours <base href>, itself resolved against the page URL', () => {
    const html = '<head><base href="/deals/"></head><a href="trainers">t</a><a href="/x">x</a>';
    expect(urls(html)).toEqual(['https://www.example-blog.com/deals/trainers', 'https://www.example-blog.com/x']);
  });

  it('uses only the first <base> with an href, even for links written before it', () => {
    const html = `<a href="early">e</a><base target="_blank"><base href="https://cdn.example.org/sub/">
      <base href="https://ignored.example.net/"><a href="late">l</a>`;
    expect(urls(html)).toEqual(['https://cdn.example.org/sub/early', 'https://cdn.example.org/sub/late']);
  });

  it('falls back to the page URL when the base href does not parse', () => {
    expect(urls('<base href="http://[not-a-host/"><a href="p">p</a>')).toEqual(['https://www.example-blog.com/reviews/running-shoes/p']);
  });

  it('yields nothing for an unparseable page URL', () => {
    expect(extractLinks('<a href="/x">x</a>', 'not a url')).toEqual({ links: [], linksFound: 0 });
  });
});

describe('extractLinks: what counts as a link', () => {
  it('drops mailto:, javascript:, tel:, data:, ftp:, fragment-only and empty hrefs', () => {
    const html = `
      <a href="mailto:editor@example-blog.com">m</a> <a href="javascript:void(0)">j</a>
      <a href=" JavaScript:alert(1)">J</a> <a href="tel:+441234567890">t</a>
      <a href="data:text/html,hi">d</a> <a href="ftp://files.example.com/x">f</a>
      <a href="#comments">c</a> <a href="">e</a> <a name="anchor">no href</a>
      <a href="${attr(AMZN_SHORT_LINK)}">kept</a>`;
    expect(extractLinks(html, PAGE)).toEqual({ links: [{ url: AMZN_SHORT_LINK, text: 'kept', rel: [] }], linksFound: 1 });
  });

  it('reads <area href> of image maps, labelled by their alt', () => {
    const html = `<img usemap="#m"><map name="m"><area shape="rect" coords="0,0,10,10" href="/go/nike-pegasus" alt="Nike Pegasus">
      <area shape="rect" href="${attr(AWIN_LINK)}" title="Buy at Awin merchant" alt="ignored"><area alt="no href"></map>`;
    expect(extractLinks(html, PAGE).links).toEqual([
      { url: 'https://www.example-blog.com/go/nike-pegasus', text: 'Nike Pegasus', rel: [] },
      { url: AWIN_LINK, text: 'Buy at Awin merchant', rel: [] },
    ]);
  });

  it('ignores links inside <template> and markup inside <script>', () => {
    const html = '<template><a href="/t">t</a></template><script>document.write("<a href=\\"/s\\">s</a>")</script><a href="/real">r</a>';
    expect(urls(html)).toEqual(['https://www.example-blog.com/real']);
  });
});

describe('extractLinks: duplicates', () => {
  it('keeps the first occurrence (URL and text) of a link repeated with and without fragments', () => {
    const html = `<a href="${attr(AWIN_LINK)}#top">First</a><a href="${attr(AWIN_LINK)}">Second</a>
      <a href="${attr(AWIN_LINK)}#">Third</a><a href="https://WWW.AWIN1.COM/cread.php?${attr(AWIN_LINK.split('?')[1] ?? '')}">Fourth</a>`;
    expect(extractLinks(html, PAGE)).toEqual({ links: [{ url: `${AWIN_LINK}#top`, text: 'First', rel: [] }], linksFound: 1 });
  });

  it('treats a relative and an absolute spelling of one URL as one link', () => {
    const html = '<a href="/go/x">a</a><a href="https://www.example-blog.com/go/x">b</a><a href="/go/x?">c</a>';
    const { links, linksFound } = extractLinks(html, PAGE);
    expect(links.map((l) => l.text)).toEqual(['a', 'c']);
    expect(linksFound).toBe(2);
  });
});

describe('extractLinks: text and rel', () => {
  it('collapses whitespace (including no-break spaces) and separates block children', () => {
    const link = only('<a href="/p">\n  Check&nbsp;the\tprice <b>on</b>\n <i>Amazon</i> <div>Nike Pegasus</div><div>£120</div></a>');
    expect(link?.text).toBe('Check the price on Amazon Nike Pegasus £120');
  });

  it('ignores script and style text inside a link', () => {
    expect(only('<a href="/p"><style>.x{}</style>Buy<script>track()</script> now</a>')?.text).toBe('Buy now');
  });

  it.each([
    ['title', '<a href="/p" title="Nike Pegasus 41" aria-label="Label"><img alt="Alt"></a>', 'Nike Pegasus 41'],
    ['aria-label', '<a href="/p" aria-label="  Buy  on Amazon "><svg></svg></a>', 'Buy on Amazon'],
    ['an inner image alt', '<a href="/p"><img src="/i.jpg" alt=""><img src="/j.jpg" alt="Shoe photo"></a>', 'Shoe photo'],
    ['nothing', '<a href="/p"><img src="/i.jpg"></a>', ''],
  ])('falls back to %s when the link has no text', (_what, html, text) => {
    expect(only(html)?.text).toBe(text);
  });

  it('prefers the visible text over the fallbacks', () => {
    expect(only('<a href="/p" title="Title"><img alt="Alt"> Visible</a>')?.text).toBe('Visible');
  });

  it('caps a very long label', () => {
    const text = only(`<a href="/p">${'word '.repeat(5000)}</a>`)?.text ?? '';
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text.endsWith('…')).toBe(true);
  });

  it('keeps rel tokens lowercased and de-duplicated', () => {
    expect(only(`<a href="${attr(AWIN_LINK)}" rel=" Sponsored\tNOFOLLOW  noopener sponsored ">x</a>`)?.rel).toEqual([
      'sponsored',
      'nofollow',
      'noopener',
    ]);
    expect(only('<area href="/go/x" rel="sponsored">')?.rel).toEqual(['sponsored']);
  });
});

describe('extractLinks: malformed HTML', () => {
  it('recovers as a browser would: unquoted and uppercase attributes, unclosed and nested anchors', () => {
    const html = `<P><A HREF=/go/one REL=Sponsored>One <a href="/go/two">Two</p><a href='/go/three'>Three
      </a></a></b><a href="/go/one">again</a>`;
    expect(extractLinks(html, PAGE).links).toEqual([
      { url: 'https://www.example-blog.com/go/one', text: 'One', rel: ['sponsored'] },
      { url: 'https://www.example-blog.com/go/two', text: 'Two', rel: [] },
      { url: 'https://www.example-blog.com/go/three', text: 'Three', rel: [] },
    ]);
  });

  it('never yields a truncated URL from a page cut off inside a tag', () => {
    expect(urls('<a href="/go/complete">c</a><a href="https://www.awin1.com/cread.php?awinmid=1')).toEqual([
      'https://www.example-blog.com/go/complete',
    ]);
  });

  it('survives garbage and hrefs that do not parse', () => {
    const html = '\u0000<<a href="http://[::1">x</a><a href="https://exa mple.com/">y</a><a <a href="/ok">ok</a>>>\uFFFD</';
    expect(() => extractLinks(html, PAGE)).not.toThrow();
    expect(urls(html)).toContain('https://www.example-blog.com/ok');
  });
});

describe('extractLinks: size', () => {
  it('reads a 500 KB page with 10,000 distinct links, returning the first 5,000 and counting all', () => {
    const parts: string[] = ['<!doctype html><html><head><title>Deals</title></head><body><article>'];
    for (let i = 0; i < 10_000; i++) {
      const href =
        i % 3 === 0 ? `${attr(AWIN_LINK)}&amp;clickref=p${i}` : i % 3 === 1 ? `/go/product-${i}` : `https://amzn.to/${i.toString(36)}`;
      parts.push(`<p>Item ${i}: a short review paragraph. <a href="${href}" rel="sponsored">deal ${i}</a></p>`);
      // The same link again with a fragment: counted once.
      if (i % 10 === 0) parts.push(`<a href="${href}#again">repeat</a>`);
    }
    let html = parts.join('\n');
    html += `<!--${' '.repeat(Math.max(0, 500 * 1024 - html.length))}--></article></body></html>`;
    expect(html.length).toBeGreaterThanOrEqual(500 * 1024);

    const { links, linksFound } = extractLinks(html, PAGE);
    expect(linksFound).toBe(10_000);
    expect(links).toHaveLength(MAX_PAGE_LINKS);
    expect(links[0]).toEqual({ url: `${AWIN_LINK}&clickref=p0`, text: 'deal 0', rel: ['sponsored'] });
    expect(links.at(-1)?.text).toBe(`deal ${MAX_PAGE_LINKS - 1}`);
  });
});
