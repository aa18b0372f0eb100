// readScanPages with a scripted source: which pages are read, how links are put together across pages, the 500
// cap, and what a page that cannot be read does to the scan.
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { FetchedDocument } from '../../src/checker/net/document-fetch.js';
import type { RenderedPage } from '../../src/checker/browser/render-page.js';
import { readScanPages, type ScanPageSource } from '../../src/services/scan-pages.js';

const SITE = 'https://www.blog.example';

function source(docs: Record<string, { type?: string; body: string | Buffer; status?: number }>, rendered: Record<string, string> = {}) {
  const fetched: string[] = [];
  const renders: string[] = [];
  const src: ScanPageSource = {
    maxPages: 20,
    async fetch(url): Promise<FetchedDocument> {
      fetched.push(url);
      const doc = docs[url];
      if (doc === undefined) return { ok: false, url, code: 'unreachable', message: 'connection refused' };
      if ((doc.status ?? 200) >= 400) return { ok: false, url, code: 'error_status', message: `the page answered HTTP ${doc.status}` };
      return { ok: true, url, status: 200, contentType: doc.type ?? 'text/html; charset=utf-8', body: Buffer.from(doc.body) };
    },
    async render(url): Promise<RenderedPage> {
      renders.push(url);
      const html = rendered[url];
      return html === undefined ? { ok: false, code: 'unreachable', message: 'no page' } : { ok: true, url, html };
    },
  };
  return { src, fetched, renders };
}

const urlset = (...pages: string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${pages.map((p) => `<url><loc>${p}</loc></url>`).join('')}</urlset>`;

describe('readScanPages', () => {
  it('reads a page: affiliate links selected in page order, every http(s) link counted', async () => {
    const { src } = source({
      [`${SITE}/post`]: {
        body: `<a href="/go/shoe">Shoe</a><a href="https://www.awin1.com/cread.php?awinmid=1&amp;awinaffid=2" rel="sponsored nofollow">Awin</a>
<a href="/about">About</a><a href="mailto:a@b.example">Mail</a><a href="javascript:void(0)">JS</a><a href="/go/shoe#x">Shoe again</a>`,
      },
    });
    const read = await readScanPages(`${SITE}/post`, false, src);
    expect(read).toMatchObject({ pagesScanned: 1, linksFound: 3, error: null });
    expect(read.links.map((l) => [l.url, l.text, l.rel, l.reason, l.page])).toEqual([
      [`${SITE}/go/shoe`, 'Shoe', [], 'cloaked', `${SITE}/post`],
      ['https://www.awin1.com/cread.php?awinmid=1&awinaffid=2', 'Awin', ['sponsored', 'nofollow'], 'network', `${SITE}/post`],
    ]);
  });

  it('checks at most 500 links and counts the rest', async () => {
    const links = Array.from({ length: 600 }, (_, i) => `<a href="/go/p${i}">P${i}</a>`).join('');
    const { src } = source({ [`${SITE}/big`]: { body: links } });
    const read = await readScanPages(`${SITE}/big`, false, src);
    expect(read.linksFound).toBe(600);
    expect(read.links).toHaveLength(500);
    expect(read.links.at(-1)?.url).toBe(`${SITE}/go/p499`);
  });

  it('reads a gzipped sitemap: own-origin pages only, a link on two pages checked once under the first', async () => {
    const { src, fetched } = source({
      [`${SITE}/sitemap.xml.gz`]: {
        type: 'application/gzip',
        body: zlib.gzipSync(urlset(`${SITE}/a`, `${SITE}/b`, 'https://evil.example/x', `${SITE}/gone`)),
      },
      [`${SITE}/a`]: { body: '<a href="/go/one">One</a><a href="/go/two">Two</a>' },
      [`${SITE}/b`]: { body: '<a href="/go/two">Two again</a><a href="/recommends/three">Three</a>' },
      [`${SITE}/gone`]: { body: '', status: 404 },
    });
    const read = await readScanPages(`${SITE}/sitemap.xml.gz`, false, src);
    expect(read).toMatchObject({ pagesScanned: 2, linksFound: 3, error: null });
    expect(read.links.map((l) => [l.page, l.url])).toEqual([
      [`${SITE}/a`, `${SITE}/go/one`],
      [`${SITE}/a`, `${SITE}/go/two`],
      [`${SITE}/b`, `${SITE}/recommends/three`],
    ]);
    expect(fetched).not.toContain('https://evil.example/x');
  });

  it('with render, reads the page the browser rendered', async () => {
    const { src, renders } = source(
      { [`${SITE}/js`]: { body: '<div id="x"></div>' } },
      { [`${SITE}/js`]: '<div id="x"><a href="/go/inserted">New</a></div>' },
    );
    const read = await readScanPages(`${SITE}/js`, true, src);
    expect(renders).toEqual([`${SITE}/js`]);
    expect(read.links.map((l) => l.url)).toEqual([`${SITE}/go/inserted`]);
  });

  it('fails when no page can be read, with the reason', async () => {
    const { src } = source({ [`${SITE}/img`]: { type: 'image/png', body: 'png' }, [`${SITE}/404`]: { body: '', status: 404 } });
    expect((await readScanPages(`${SITE}/missing`, false, src)).error).toMatchObject({ code: 'page_unreachable' });
    expect((await readScanPages(`${SITE}/404`, false, src)).error).toMatchObject({ code: 'page_error_status' });
    expect((await readScanPages(`${SITE}/img`, false, src)).error).toMatchObject({ code: 'not_a_page' });
    const empty = source({ [`${SITE}/sitemap.xml`]: { type: 'application/xml', body: urlset('https://elsewhere.example/a') } });
    expect(await readScanPages(`${SITE}/sitemap.xml`, false, empty.src)).toMatchObject({
      pagesScanned: 0,
      error: { code: 'empty_sitemap' },
    });
  });
});
