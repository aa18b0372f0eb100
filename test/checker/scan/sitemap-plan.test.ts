import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCAN_MAX_PAGES, planSitemapPages } from '../../../src/checker/scan/sitemap-plan.js';
import type { ParsedSitemap } from '../../../src/checker/scan/sitemap.js';

const SITE = 'https://www.example-blog.com';
const INDEX_URL = `${SITE}/sitemap_index.xml`;

function urlsetXml(locs: string[]): string {
  return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`;
}

function indexXml(locs: string[]): string {
  return `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('')}</sitemapindex>`;
}

function index(locs: string[]): ParsedSitemap {
  return { kind: 'index', urls: locs };
}

function pages(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${SITE}/${prefix}/${i}`);
}

/** A fake web of sitemaps that records what the planner asked for. */
function web(bodies: Record<string, Buffer | string | Error | null>) {
  const fetched: string[] = [];
  const fetch = async (url: string): Promise<Buffer | string | null> => {
    fetched.push(url);
    const body = bodies[url];
    if (body instanceof Error) throw body;
    return body ?? null;
  };
  return { fetch, fetched };
}

describe('planSitemapPages', () => {
  it('takes the pages of a urlset up to maxPages (default 20) without fetching anything', async () => {
    const { fetch, fetched } = web({});
    const plan = await planSitemapPages(`${SITE}/sitemap.xml`, { kind: 'urlset', urls: pages('post', 50) }, { fetch });
    expect(plan).toEqual(pages('post', DEFAULT_SCAN_MAX_PAGES));
    expect(fetched).toEqual([]);
  });

  it('walks an index breadth-first and fetches child sitemaps only while pages are wanted', async () => {
    const { fetch, fetched } = web({
      [`${SITE}/post-sitemap.xml`]: urlsetXml(pages('post', 3)),
      [`${SITE}/page-sitemap.xml.gz`]: gzipSync(urlsetXml(pages('page', 3))),
      [`${SITE}/product-sitemap.xml`]: urlsetXml(pages('product', 3)),
    });
    const root = index([`${SITE}/post-sitemap.xml`, `${SITE}/page-sitemap.xml.gz`, `${SITE}/product-sitemap.xml`]);
    const plan = await planSitemapPages(INDEX_URL, root, { fetch, maxPages: 5 });
    expect(plan).toEqual([...pages('post', 3), ...pages('page', 2)]);
    expect(fetched).toEqual([`${SITE}/post-sitemap.xml`, `${SITE}/page-sitemap.xml.gz`]);
  });

  it('visits the root index’s children before a nested index’s', async () => {
    const { fetch, fetched } = web({
      [`${SITE}/nested-index.xml`]: indexXml([`${SITE}/deep.xml`]),
      [`${SITE}/a.xml`]: urlsetXml([`${SITE}/a`]),
      [`${SITE}/deep.xml`]: urlsetXml([`${SITE}/deep`]),
    });
    const plan = await planSitemapPages(INDEX_URL, index([`${SITE}/nested-index.xml`, `${SITE}/a.xml`]), { fetch });
    expect(plan).toEqual([`${SITE}/a`, `${SITE}/deep`]);
    expect(fetched).toEqual([`${SITE}/nested-index.xml`, `${SITE}/a.xml`, `${SITE}/deep.xml`]);
  });

  it('skips cross-origin and non-http(s) entries, pages and child sitemaps alike', async () => {
    const { fetch, fetched } = web({
      [`${SITE}/a.xml`]: urlsetXml([
        `${SITE}/ok`,
        'https://example-blog.com/no-www',
        'http://www.example-blog.com/plain-http',
        'https://www.example-blog.com:8443/other-port',
        'https://evil.example.net/page',
        'ftp://www.example-blog.com/file',
        '/relative',
        'javascript:alert(1)',
      ]),
    });
    const root = index([`${SITE}/a.xml`, 'https://attacker.example/sitemap.xml', 'http://169.254.169.254/latest/meta-data/']);
    expect(await planSitemapPages(INDEX_URL, root, { fetch })).toEqual([`${SITE}/ok`]);
    expect(fetched).toEqual([`${SITE}/a.xml`]);
  });

  it('judges a child sitemap’s entries against the child’s own URL', async () => {
    const plan = await planSitemapPages(
      `${SITE}/sitemap.xml`,
      { kind: 'urlset', urls: [`${SITE}/x`, 'https://cdn.example-blog.com/y'] },
      web({}),
    );
    expect(plan).toEqual([`${SITE}/x`]);
  });

  it('de-duplicates pages (fragments ignored) and never fetches a sitemap twice', async () => {
    const { fetch, fetched } = web({
      [`${SITE}/a.xml`]: urlsetXml([`${SITE}/p`, `${SITE}/p#reviews`, `${SITE}/q`]),
      [`${SITE}/b.xml`]: urlsetXml([`${SITE}/q`, `${SITE}/r`]),
      [`${SITE}/loop.xml`]: indexXml([INDEX_URL, `${SITE}/a.xml`, `${SITE}/loop.xml`]),
    });
    const root = index([`${SITE}/a.xml`, `${SITE}/a.xml#dup`, `${SITE}/loop.xml`, `${SITE}/b.xml`]);
    expect(await planSitemapPages(INDEX_URL, root, { fetch })).toEqual([`${SITE}/p`, `${SITE}/q`, `${SITE}/r`]);
    expect(fetched).toEqual([`${SITE}/a.xml`, `${SITE}/loop.xml`, `${SITE}/b.xml`]);
  });

  it('skips child sitemaps that fail, are missing or are not sitemaps', async () => {
    const { fetch } = web({
      [`${SITE}/throws.xml`]: new Error('ECONNRESET'),
      [`${SITE}/html.xml`]: '<!doctype html><html><body>Not found</body></html>',
      [`${SITE}/ok.xml`]: urlsetXml([`${SITE}/ok`]),
    });
    const root = index([`${SITE}/throws.xml`, `${SITE}/missing.xml`, `${SITE}/html.xml`, `${SITE}/ok.xml`]);
    expect(await planSitemapPages(INDEX_URL, root, { fetch })).toEqual([`${SITE}/ok`]);
  });

  it('stops after maxSitemapFetches child sitemaps', async () => {
    const children = Array.from({ length: 50 }, (_, i) => `${SITE}/empty-${i}.xml`);
    const { fetch, fetched } = web(Object.fromEntries(children.map((url) => [url, urlsetXml([])])));
    expect(await planSitemapPages(INDEX_URL, index(children), { fetch, maxSitemapFetches: 4 })).toEqual([]);
    expect(fetched).toHaveLength(4);
  });
});
