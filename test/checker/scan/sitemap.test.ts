import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseSitemap } from '../../../src/checker/scan/sitemap.js';

const SITE = 'https://www.example-blog.com';

function urlset(locs: string[], attrs = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'): string {
  const entries = locs.map((loc) => `  <url>\n    <loc>${loc}</loc>\n    <lastmod>2026-01-01</lastmod>\n  </url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${attrs}>\n${entries.join('\n')}\n</urlset>\n`;
}

describe('parseSitemap', () => {
  it('reads a <urlset> in document order, trimmed, entities decoded', () => {
    const xml = urlset([`${SITE}/reviews/shoes/`, ` \n ${SITE}/deals?cat=shoes&amp;page=2 \n`]);
    expect(parseSitemap(xml)).toEqual({ kind: 'urlset', urls: [`${SITE}/reviews/shoes/`, `${SITE}/deals?cat=shoes&page=2`] });
  });

  it('reads a <sitemapindex> of child sitemaps', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <sitemap><loc>${SITE}/post-sitemap.xml</loc><lastmod>2026-01-01T00:00:00+00:00</lastmod></sitemap>
        <sitemap><loc>${SITE}/page-sitemap.xml.gz</loc></sitemap>
      </sitemapindex>`;
    expect(parseSitemap(xml)).toEqual({ kind: 'index', urls: [`${SITE}/post-sitemap.xml`, `${SITE}/page-sitemap.xml.gz`] });
  });

  it('reads a gzipped body, detected by its magic bytes, and a Buffer with a BOM', () => {
    const xml = urlset([`${SITE}/a`, `${SITE}/b`]);
    expect(parseSitemap(gzipSync(xml))).toEqual({ kind: 'urlset', urls: [`${SITE}/a`, `${SITE}/b`] });
    expect(parseSitemap(Buffer.from(`\uFEFF${xml}`, 'utf8'))?.urls).toEqual([`${SITE}/a`, `${SITE}/b`]);
  });

  it('handles namespace prefixes and CDATA', () => {
    const xml = `<?xml version="1.0"?>
      <sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
        <sm:url><sm:loc><![CDATA[${SITE}/deals?a=1&b=2]]></sm:loc></sm:url>
        <sm:url><sm:loc>  <![CDATA[${SITE}/x]]>  </sm:loc></sm:url>
      </sm:urlset>`;
    expect(parseSitemap(xml)).toEqual({ kind: 'urlset', urls: [`${SITE}/deals?a=1&b=2`, `${SITE}/x`] });
  });

  it('takes only the page loc, never the image or video extensions’ locs', () => {
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">
      <url><loc>${SITE}/review</loc>
        <image:image><image:loc>${SITE}/img/shoe.jpg</image:loc></image:image>
        <video:video><video:content_loc>${SITE}/v.mp4</video:content_loc><video:player_loc>${SITE}/p</video:player_loc></video:video>
      </url></urlset>`;
    expect(parseSitemap(xml)?.urls).toEqual([`${SITE}/review`]);
  });

  it('returns every entry as written: origin and scheme rules are the planner’s', () => {
    const xml = urlset([`${SITE}/ok`, 'https://other.example.com/page', 'ftp://x/y', '/relative']);
    expect(parseSitemap(xml)?.urls).toEqual([`${SITE}/ok`, 'https://other.example.com/page', 'ftp://x/y', '/relative']);
  });

  it('knows an empty sitemap from no sitemap', () => {
    expect(parseSitemap('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>')).toEqual({ kind: 'urlset', urls: [] });
  });

  it.each([
    ['an HTML page', `<!doctype html><html><body><a href="${SITE}/x">x</a><urlset><url><loc>${SITE}/y</loc></url></urlset></body></html>`],
    ['an RSS feed', `<?xml version="1.0"?><rss version="2.0"><channel><item><link>${SITE}/x</link></item></channel></rss>`],
    ['plain text', 'User-agent: *\nSitemap: https://www.example-blog.com/sitemap.xml'],
    ['an empty body', ''],
    ['a corrupt gzip body', Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6])],
  ])('is null for %s', (_what, body) => {
    expect(parseSitemap(body)).toBeNull();
  });

  it('never returns a loc cut off by a byte cap', () => {
    const xml = urlset([`${SITE}/first`, `${SITE}/second-page-that-is-cut`]);
    const cut = xml.slice(0, xml.indexOf('second-page') + 6);
    expect(parseSitemap(cut)).toEqual({ kind: 'urlset', urls: [`${SITE}/first`] });
  });

  it('reads the first part of a gzipped sitemap that decompresses past the cap', () => {
    const locs = Array.from({ length: 20_000 }, (_, i) => `${SITE}/post/${i}`);
    const xml = urlset(locs);
    const parsed = parseSitemap(gzipSync(xml), { maxBytes: 64 * 1024 });
    expect(parsed?.kind).toBe('urlset');
    const urls = parsed?.urls ?? [];
    expect(urls.length).toBeGreaterThan(100);
    expect(urls.length).toBeLessThan(locs.length);
    expect(urls).toEqual(locs.slice(0, urls.length));
  });

  it('defuses a gzip bomb to a bounded prefix', () => {
    const bomb = gzipSync(
      Buffer.concat([Buffer.from(urlset([`${SITE}/a`]).replace('</urlset>', '')), Buffer.alloc(64 * 1024 * 1024, 0x20)]),
    );
    expect(parseSitemap(bomb, { maxBytes: 1024 * 1024 })).toEqual({ kind: 'urlset', urls: [`${SITE}/a`] });
  });

  it('stops at maxUrls entries', () => {
    const xml = urlset(Array.from({ length: 30 }, (_, i) => `${SITE}/p${i}`));
    expect(parseSitemap(xml, { maxUrls: 5 })?.urls).toHaveLength(5);
  });
});
