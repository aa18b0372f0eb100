import zlib from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { followChain, type ChainOptions } from '../../src/checker/follow/chain.js';
import { closePinnedClients } from '../../src/checker/net/pinned-agent.js';
import { sendResponse, startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';

let web: AffiliateWeb;
const opts = (extra: ChainOptions = {}): ChainOptions => ({ resolve: web.resolve, extraCaCerts: [web.caCert], ...extra });
const landingPage = (): void => {
  web.page('www.shop.example', '/landing', '<title>Landing</title>');
};

beforeAll(async () => {
  web = await startAffiliateWeb();
});
beforeEach(() => web.reset());
afterAll(async () => {
  await closePinnedClients();
  await web.close();
});

describe('meta refresh and the Refresh header', () => {
  it.each([
    ['<meta http-equiv="refresh" content="0; url=TARGET">'],
    ['<META HTTP-EQUIV="REFRESH" CONTENT="0;URL=TARGET">'],
    ["<meta http-equiv='refresh' content='1;url=\"TARGET\"'>"],
    ['<meta content="2; URL=\'TARGET\'" http-equiv="Refresh" />'],
    ['<meta http-equiv=refresh content=0;url=TARGET>'],
    ['<meta http-equiv="refresh" content="10, url=TARGET">'],
  ])('follows %s as a meta-refresh hop', async (tag) => {
    landingPage();
    const target = web.url('www.shop.example', '/landing');
    web.page('redir.example', '/m', `<html><head>${tag.replace('TARGET', target)}</head></html>`);
    const trace = await followChain(web.url('redir.example', '/m'), opts());
    expect(trace.end).toEqual({ reason: 'landed' });
    expect(trace.hops.map((h) => [h.kind, h.status])).toEqual([
      ['http', 200],
      ['meta-refresh', 200],
    ]);
    expect(trace.hops[1]?.url).toBe(target);
    expect(trace.landing?.title).toBe('Landing');
  });

  it('resolves a relative refresh URL against <base href> and decodes &amp;', async () => {
    web.route('www.shop.example', '/base/next', (_req, res, ctx) => res.end(`<title>${ctx.query.get('a')}-${ctx.query.get('b')}</title>`));
    web.page(
      'redir.example',
      '/m',
      `<base href="${web.url('www.shop.example', '/base/')}"><meta http-equiv="refresh" content="0;url=next?a=1&amp;b=2">`,
    );
    const trace = await followChain(web.url('redir.example', '/m'), opts());
    expect(trace.hops[1]?.url).toBe(web.url('www.shop.example', '/base/next?a=1&b=2'));
    expect(trace.landing?.title).toBe('1-2');
  });

  it('does not follow a refresh slower than 10 s, one without a URL, or one hidden in <noscript>', async () => {
    for (const html of [
      '<meta http-equiv="refresh" content="11; url=/landing"><title>slow</title>',
      '<meta http-equiv="refresh" content="0"><title>reload</title>',
      '<noscript><meta http-equiv="refresh" content="0; url=/landing"></noscript><title>noscript</title>',
      '<meta http-equiv="refresh" content="0; url=javascript:alert(1)"><title>js</title>',
    ]) {
      web.page('redir.example', '/m', html);
      const trace = await followChain(web.url('redir.example', '/m'), opts());
      expect(trace.end).toEqual({ reason: 'landed' });
      expect(trace.hops).toHaveLength(1);
    }
  });

  it('follows a Refresh response header', async () => {
    landingPage();
    web.page('redir.example', '/h', {
      html: '<title>wait</title>',
      headers: { refresh: `0; url=${web.url('www.shop.example', '/landing')}` },
    });
    const trace = await followChain(web.url('redir.example', '/h'), opts());
    expect(trace.hops.map((h) => h.kind)).toEqual(['http', 'meta-refresh']);
  });

  it('sends a Referer and page-initiated fetch metadata on client-side hops', async () => {
    web.page('www.shop.example', '/landing', '<title>Landing</title>');
    web.page('redir.example', '/m', `<meta http-equiv="refresh" content="0;url=${web.url('www.shop.example', '/landing', true)}">`);
    await followChain(web.url('redir.example', '/m', true), opts());
    const landing = web.requests.find((r) => r.host === 'www.shop.example');
    expect(landing?.headers.referer).toBe(`https://redir.example:${web.httpsPort}/`);
    expect(landing?.headers['sec-fetch-site']).toBe('cross-site');
    expect(landing?.headers['sec-fetch-user']).toBeUndefined();
  });
});

describe('JavaScript redirects', () => {
  it.each([
    [(u: string) => `location.href = ${u};`],
    [(u: string) => `location = ${u.replace(/"/g, "'")}`],
    [(u: string) => `window.location = ${u};`],
    [(u: string) => `window.location.href=${u};`],
    [(u: string) => `document.location.href = ${u};`],
    [(u: string) => `top.location = ${u};`],
    [(u: string) => `location.replace(${u});`],
    [(u: string) => `location.assign(${u})`],
    [(u: string) => `window.location.replace(${u});`],
    [(u: string) => `setTimeout(function(){ window.location.href = \`${JSON.parse(u) as string}\`; }, 500);`],
  ])('follows literal form #%# as a javascript hop', async (statement) => {
    landingPage();
    web.scriptRedirect('redir.example', '/j', web.url('www.shop.example', '/landing'), { statement });
    const trace = await followChain(web.url('redir.example', '/j'), opts());
    expect(trace.end).toEqual({ reason: 'landed' });
    expect(trace.hops.map((h) => h.kind)).toEqual(['http', 'javascript']);
    expect(trace.landing).toMatchObject({ title: 'Landing', scriptNavigation: false });
  });

  it('prefers an instant meta refresh over a script redirect, and a script over a delayed refresh', async () => {
    web.page('www.shop.example', '/meta', '<title>meta</title>');
    web.page('www.shop.example', '/js', '<title>js</title>');
    web.page(
      'redir.example',
      '/instant',
      '<meta http-equiv="refresh" content="0;url=/meta-target"><script>location.href="/js-target"</script>',
    );
    web.redirect('redir.example', '/meta-target', web.url('www.shop.example', '/meta'));
    web.redirect('redir.example', '/js-target', web.url('www.shop.example', '/js'));
    web.page(
      'redir.example',
      '/delayed',
      '<meta http-equiv="refresh" content="3;url=/meta-target"><script>location.href="/js-target"</script>',
    );
    expect((await followChain(web.url('redir.example', '/instant'), opts())).landing?.title).toBe('meta');
    expect((await followChain(web.url('redir.example', '/delayed'), opts())).landing?.title).toBe('js');
  });

  it('lands and flags scriptNavigation when the script navigates to a computed URL', async () => {
    web.page(
      'redir.example',
      '/computed',
      '<title>Redirecting…</title><script>var base = "https://shop.example/p?x="; location.href = base + encodeURIComponent(document.referrer);</script>',
    );
    const trace = await followChain(web.url('redir.example', '/computed'), opts());
    expect(trace.end).toEqual({ reason: 'landed' });
    expect(trace.hops).toHaveLength(1);
    expect(trace.landing).toMatchObject({ title: 'Redirecting…', scriptNavigation: true });
  });

  it('ignores navigation in click handlers on an ordinary page', async () => {
    web.page(
      'www.shop.example',
      '/p',
      '<title>Product</title><script>document.querySelector("#buy").addEventListener("click", function () { location.href = "/cart"; });</script>',
    );
    const trace = await followChain(web.url('www.shop.example', '/p'), opts());
    expect(trace.hops).toHaveLength(1);
    expect(trace.landing?.scriptNavigation).toBe(false);
  });
});

describe('landing page facts', () => {
  it.each([
    [403, '<title>Forbidden</title>'],
    [429, '<title>Too many requests</title>'],
    [503, '<title>Just a moment...</title><script>window._cf_chl_opt = {};</script>'],
    [200, '<title>Just a moment...</title>'],
  ])('calls a %i challenge a bot wall (and stops there)', async (status, html) => {
    web.page('www.shop.example', '/wall', { status, html: `${html}<meta http-equiv="refresh" content="0;url=/elsewhere">` });
    const trace = await followChain(web.url('www.shop.example', '/wall'), opts());
    expect(trace.end).toEqual({ reason: 'landed' });
    expect(trace.hops).toHaveLength(1);
    expect(trace.landing?.botWall).toBe(true);
  });

  it('recognises a cf-mitigated challenge header without reading a body', async () => {
    web.page('www.shop.example', '/cf', { status: 403, html: 'x', contentType: 'text/plain', headers: { 'cf-mitigated': 'challenge' } });
    const trace = await followChain(web.url('www.shop.example', '/cf'), opts());
    expect(trace.landing).toMatchObject({ botWall: true, contentType: 'text/plain', title: null });
  });

  it('reports a plain 503 or 404 as a page, not a bot wall', async () => {
    web.page('www.shop.example', '/down', { status: 503, html: '<title>Maintenance</title>' });
    const trace = await followChain(web.url('www.shop.example', '/down'), opts());
    expect(trace.landing).toMatchObject({ botWall: false, title: 'Maintenance' });
    expect(trace.hops[0]?.status).toBe(503);
  });

  it('reads schema.org availability from JSON-LD and microdata', async () => {
    web.page(
      'www.shop.example',
      '/oos',
      '<title>Shoe</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","offers":{"@type":"Offer","availability":"https://schema.org/OutOfStock"}}</script>',
    );
    web.page(
      'www.shop.example',
      '/ok',
      '<div itemscope itemtype="https://schema.org/Offer"><link itemprop="availability" href="https://schema.org/InStock"></div>',
    );
    expect((await followChain(web.url('www.shop.example', '/oos'), opts())).landing?.availability).toBe('out_of_stock');
    expect((await followChain(web.url('www.shop.example', '/ok'), opts())).landing?.availability).toBe('in_stock');
  });

  it('does not read non-HTML bodies', async () => {
    web.page('www.shop.example', '/img.png', { html: '<title>not read</title>', contentType: 'image/png' });
    const trace = await followChain(web.url('www.shop.example', '/img.png'), opts());
    expect(trace.landing).toMatchObject({ contentType: 'image/png', title: null, availability: null });
  });

  it('reads a body without Content-Type as possible HTML', async () => {
    web.route('www.shop.example', '/untyped', (_req, res) => res.end('<title>Untyped</title>'));
    const trace = await followChain(web.url('www.shop.example', '/untyped'), opts());
    expect(trace.landing).toMatchObject({ contentType: null, title: 'Untyped' });
  });

  it('decodes the declared charset', async () => {
    web.route('www.shop.example', '/latin1', (_req, res) => {
      sendResponse(res, Buffer.from('<title>Caf\u00e9 cr\u00e8me</title>', 'latin1'), { contentType: 'text/html; charset=ISO-8859-1' });
    });
    web.route('www.shop.example', '/meta-charset', (_req, res) => {
      const bytes = Buffer.concat([Buffer.from('<meta charset="windows-1252"><title>'), Buffer.from([0x80]), Buffer.from('10</title>')]);
      sendResponse(res, bytes, { contentType: 'text/html' });
    });
    expect((await followChain(web.url('www.shop.example', '/latin1'), opts())).landing?.title).toBe('Caf\u00e9 cr\u00e8me');
    expect((await followChain(web.url('www.shop.example', '/meta-charset'), opts())).landing?.title).toBe('\u20ac10');
  });
});

describe('bodies: encodings and limits', () => {
  it.each(['gzip', 'br', 'deflate', 'deflate-raw'] as const)('decodes %s', async (encoding) => {
    web.page('www.shop.example', '/enc', {
      html: '<title>Compressed page</title><meta http-equiv="refresh" content="0;url=/landing">',
      encoding,
    });
    landingPage();
    const trace = await followChain(web.url('www.shop.example', '/enc'), opts());
    expect(trace.hops.map((h) => h.kind)).toEqual(['http', 'meta-refresh']);
  });

  it('survives a corrupt or unsupported encoding', async () => {
    web.route('www.shop.example', '/corrupt', (_req, res) =>
      sendResponse(res, Buffer.from('definitely not gzip'), { contentType: 'text/html', headers: { 'content-encoding': 'gzip' } }),
    );
    web.route('www.shop.example', '/zstd', (_req, res) =>
      sendResponse(res, Buffer.from('???'), { contentType: 'text/html', headers: { 'content-encoding': 'zstd' } }),
    );
    for (const path of ['/corrupt', '/zstd']) {
      const trace = await followChain(web.url('www.shop.example', path), opts());
      expect(trace.end).toEqual({ reason: 'landed' });
      expect(trace.landing?.title).toBeNull();
    }
  });

  it('keeps what a truncated gzip body yields', async () => {
    const words = Array.from({ length: 4000 }, (_, i) => ((i * 2654435761) % 1000003).toString(36)).join(' ');
    const full = zlib.gzipSync(Buffer.from(`<title>Truncated</title><p>${words}</p>`));
    web.route('www.shop.example', '/trunc', (_req, res) =>
      sendResponse(res, full.subarray(0, Math.floor(full.length / 2)), {
        contentType: 'text/html',
        headers: { 'content-encoding': 'gzip' },
      }),
    );
    expect((await followChain(web.url('www.shop.example', '/trunc'), opts())).landing?.title).toBe('Truncated');
  });

  it('reads at most maxBodyBytes: a refresh beyond the cap is not seen', async () => {
    const html = `<title>Big</title>${'<p>filler</p>'.repeat(200)}<meta http-equiv="refresh" content="0;url=/landing">`;
    web.page('www.shop.example', '/big', { html });
    web.page('www.shop.example', '/big-gz', { html, encoding: 'gzip' });
    landingPage();
    for (const path of ['/big', '/big-gz']) {
      const capped = await followChain(web.url('www.shop.example', path), opts({ maxBodyBytes: 1024 }));
      expect(capped.hops).toHaveLength(1);
      expect(capped.landing?.title).toBe('Big');
      const full = await followChain(web.url('www.shop.example', path), opts());
      expect(full.hops).toHaveLength(2);
    }
  });

  it('stops inflating a decompression bomb at the cap', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)); // 64 MiB of spaces in ~64 KiB
    web.route('www.shop.example', '/bomb', (_req, res) =>
      sendResponse(res, bomb, { contentType: 'text/html', headers: { 'content-encoding': 'gzip' } }),
    );
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const trace = await followChain(web.url('www.shop.example', '/bomb'), opts());
    expect(trace.end).toEqual({ reason: 'landed' });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(process.memoryUsage().rss - before).toBeLessThan(48 * 1024 * 1024);
  });

  it('does not wait for a large 3xx body', async () => {
    web.route('www.shop.example', '/big-redirect', (_req, res) => {
      res.writeHead(302, { location: '/landing', 'content-type': 'text/html' });
      res.write('x'.repeat(1024));
      // The rest of the body never comes; the hop must not wait for it.
    });
    landingPage();
    const trace = await followChain(web.url('www.shop.example', '/big-redirect'), opts({ hopTimeoutMs: 2000 }));
    expect(trace.end).toEqual({ reason: 'landed' });
    expect(trace.hops[0]?.timeMs).toBeLessThan(500);
  });
});

describe('fetch metadata relations', () => {
  it('relates sites by scheme and registrable domain', async () => {
    const { relateSites, refererFor, worstSite } = await import('../../src/checker/net/http-client.js');
    const u = (s: string): URL => new URL(s);
    expect(relateSites(u('https://a.shop.example/x'), u('https://a.shop.example/y'))).toBe('same-origin');
    expect(relateSites(u('https://a.shop.example/'), u('https://b.shop.example/'))).toBe('same-site');
    expect(relateSites(u('http://a.shop.example/'), u('https://b.shop.example/'))).toBe('cross-site');
    expect(relateSites(u('https://one.myshopify.com/'), u('https://two.myshopify.com/'))).toBe('cross-site');
    expect(worstSite('same-origin', 'cross-site')).toBe('cross-site');
    expect(worstSite('none', 'same-site')).toBe('same-site');
    expect(refererFor(u('https://a.test/p?q=1#f'), u('https://a.test/next'))).toBe('https://a.test/p?q=1');
    expect(refererFor(u('https://a.test/p'), u('https://b.test/'))).toBe('https://a.test/');
    expect(refererFor(u('https://a.test/p'), u('http://b.test/'))).toBeNull();
  });
});
