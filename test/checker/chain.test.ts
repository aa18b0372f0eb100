import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_USER_AGENT, followChain, type ChainOptions } from '../../src/checker/follow/chain.js';
import { closePinnedClients } from '../../src/checker/net/pinned-agent.js';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';

let web: AffiliateWeb;
const opts = (extra: ChainOptions = {}): ChainOptions => ({ resolve: web.resolve, extraCaCerts: [web.caCert], ...extra });

beforeAll(async () => {
  web = await startAffiliateWeb();
});
beforeEach(() => web.reset());
afterAll(async () => {
  await closePinnedClients();
  await web.close();
});

describe('following HTTP redirects', () => {
  it('follows a realistic network chain to the landing page and records every hop', async () => {
    web.redirect('www.awin1.com', '/cread.php', (ctx) =>
      web.url('track.shop.example', `/click?awc=${ctx.query.get('awinaffid')}_abc&src=aw`),
    );
    web.redirect('track.shop.example', '/click', (ctx) => web.url('www.shop.example', `/p/shoe?awc=${ctx.query.get('awc')}`, true), {
      status: 301,
    });
    web.page('www.shop.example', '/p/shoe', '<title>Shoe</title>');
    const start = web.url('www.awin1.com', '/cread.php?awinmid=1&awinaffid=99&ued=x');
    const trace = await followChain(start, opts());
    expect(trace.end).toEqual({ reason: 'landed' });
    expect(trace.hops.map((h) => [h.status, h.kind])).toEqual([
      [302, 'http'],
      [301, 'http'],
      [200, 'http'],
    ]);
    expect(trace.hops[0]).toMatchObject({
      url: start,
      location: web.url('track.shop.example', '/click?awc=99_abc&src=aw'),
      network: null,
      error: null,
      paramsAdded: [],
      paramsRemoved: [],
    });
    expect(trace.hops[1]).toMatchObject({ paramsAdded: ['awc', 'src'], paramsRemoved: ['awinmid', 'awinaffid', 'ued'] });
    expect(trace.hops[2]).toMatchObject({
      url: web.url('www.shop.example', '/p/shoe?awc=99_abc', true),
      location: null,
      paramsAdded: [],
      paramsRemoved: ['src'],
    });
    expect(trace.landing).toMatchObject({
      contentType: 'text/html; charset=utf-8',
      title: 'Shoe',
      botWall: false,
      availability: null,
      scriptNavigation: false,
    });
    expect(trace.hops.every((h) => Number.isInteger(h.timeMs) && h.timeMs >= 0)).toBe(true);
  });

  it.each([301, 302, 303, 307, 308])('follows %i', async (status) => {
    web.redirect('go.example', '/r', '/landing', { status });
    web.page('go.example', '/landing', '<title>ok</title>');
    const trace = await followChain(web.url('go.example', '/r'), opts());
    expect(trace.end.reason).toBe('landed');
    expect(trace.hops.map((h) => h.status)).toEqual([status, 200]);
  });

  it.each([300, 304, 305, 306, 399])('does not follow %i (not a redirect to a browser) and lands on it', async (status) => {
    web.redirect('go.example', '/r', '/landing', { status });
    const trace = await followChain(web.url('go.example', '/r'), opts());
    expect(trace.end).toEqual({ reason: 'landed' });
    expect(trace.hops).toHaveLength(1);
    expect(trace.hops[0]).toMatchObject({ status, location: '/landing' });
    expect(web.hits('go.example', '/landing')).toBe(0);
  });

  it('lands on a 3xx that has no Location', async () => {
    web.route('go.example', '/r', (_req, res) => {
      res.writeHead(302);
      res.end();
    });
    const trace = await followChain(web.url('go.example', '/r'), opts());
    expect(trace.end).toEqual({ reason: 'landed' });
    expect(trace.hops[0]).toMatchObject({ status: 302, location: null });
  });

  it.each([
    ['/abs/path?x=1', '/abs/path', '?x=1'],
    ['relative', '/dir/relative', ''],
    ['../up', '/up', ''],
    ['./same', '/dir/same', ''],
    ['?only=query', '/dir/page', '?only=query'],
    ['  /padded  ', '/padded', ''],
  ])('resolves the relative Location %j against the hop URL', async (location, path, search) => {
    web.route('rel.example', '*', (_req, res, ctx) => {
      if (ctx.url.pathname === '/dir/page' && ctx.url.search === '') res.writeHead(302, { location });
      res.end('<title>landing</title>');
    });
    const trace = await followChain(web.url('rel.example', '/dir/page'), opts());
    expect(trace.end.reason).toBe('landed');
    // HTTP parsing drops leading whitespace of a header value.
    expect(trace.hops[0]?.location).toBe(location.trimStart());
    expect(trace.hops[1]?.url).toBe(web.url('rel.example', `${path}${search}`));
  });

  it('resolves protocol-relative Locations and keeps the fragment when the Location has none', async () => {
    web.redirect('a.example', '/r', `//b.example:${web.httpPort}/x`);
    web.redirect('b.example', '/x', '/y#own');
    web.page('b.example', '/y', '<title>y</title>');
    const trace = await followChain(`${web.url('a.example', '/r')}#frag`, opts());
    expect(trace.hops.map((h) => h.url)).toEqual([
      web.url('a.example', '/r#frag'),
      web.url('b.example', '/x#frag'),
      web.url('b.example', '/y#own'),
    ]);
  });

  it('reads a UTF-8 Location as UTF-8', async () => {
    web.route('u.example', '/r', (_req, res) => {
      res.writeHead(302, { location: Buffer.from('/caf\u00e9?q=\u00fc', 'utf8').toString('latin1') });
      res.end();
    });
    web.route('u.example', '*', (_req, res) => res.end('ok'));
    const trace = await followChain(web.url('u.example', '/r'), opts());
    expect(trace.hops[1]?.url).toBe(web.url('u.example', '/caf%C3%A9?q=%C3%BC'));
  });

  it('ends as unreachable on an unparseable Location', async () => {
    web.redirect('bad.example', '/r', 'http://[not-an-ip/x');
    const trace = await followChain(web.url('bad.example', '/r'), opts());
    expect(trace.end).toEqual({ reason: 'unreachable', hop: 0, error: 'invalid Location header' });
    expect(trace.hops).toHaveLength(1);
    expect(trace.hops[0]).toMatchObject({ status: 302, location: 'http://[not-an-ip/x', error: null });
  });

  it('ends as unreachable for a URL it cannot follow, without throwing', async () => {
    for (const bad of ['not a url', 'ftp://x.example/', '']) {
      const trace = await followChain(bad);
      expect(trace.end).toMatchObject({ reason: 'unreachable', hop: 0 });
      expect(trace.hops).toHaveLength(1);
      expect(trace.hops[0]?.status).toBeNull();
      expect(trace.landing).toBeNull();
    }
  });
});

describe('loops and the hop limit', () => {
  it('ends a bounce between two URLs as a redirect loop pointing at the repeated hop', async () => {
    web.redirect('loop.example', '/a', '/b');
    web.redirect('loop.example', '/b', '/a');
    const trace = await followChain(web.url('loop.example', '/a'), opts());
    expect(trace.end).toEqual({ reason: 'redirect_loop', hop: 0 });
    expect(trace.hops.map((h) => h.url)).toEqual([web.url('loop.example', '/a'), web.url('loop.example', '/b')]);
    expect(web.hits('loop.example', '/a')).toBe(1);
  });

  it('treats a redirect to itself as a loop', async () => {
    web.redirect('loop.example', '/self', '/self');
    const trace = await followChain(web.url('loop.example', '/self'), opts());
    expect(trace.end).toEqual({ reason: 'redirect_loop', hop: 0 });
    expect(trace.hops).toHaveLength(1);
  });

  it('does not call a cookie-setting bounce a loop (A → B sets cookie → A again, now with the cookie)', async () => {
    web.route('bounce.example', '/a', (_req, res, ctx) => {
      const target = ctx.cookies['seen'] === '1' ? '/done' : '/set';
      res.writeHead(302, { location: target });
      res.end();
    });
    web.redirect('bounce.example', '/set', '/a', { setCookies: ['seen=1; Path=/'] });
    web.page('bounce.example', '/done', '<title>done</title>');
    const trace = await followChain(web.url('bounce.example', '/a'), opts());
    expect(trace.end).toEqual({ reason: 'landed' });
    expect(trace.hops.map((h) => new URL(h.url).pathname)).toEqual(['/a', '/set', '/a', '/done']);
  });

  it('still catches a loop that keeps resetting the same cookie', async () => {
    web.redirect('bounce.example', '/x', '/y', { setCookies: ['n=1; Path=/'] });
    web.redirect('bounce.example', '/y', '/x', { setCookies: ['n=1; Path=/'] });
    const trace = await followChain(web.url('bounce.example', '/x'), opts());
    // /x (no cookie) → /y (n=1) → /x (n=1) → /y (n=1): the fourth request repeats hop 1.
    expect(trace.end).toEqual({ reason: 'redirect_loop', hop: 1 });
    expect(trace.hops).toHaveLength(3);
  });

  it('makes at most maxHops + 1 requests, then ends with too_many_redirects', async () => {
    web.route('deep.example', '*', (_req, res, ctx) => {
      const n = Number(ctx.url.pathname.slice(1));
      res.writeHead(302, { location: `/${n + 1}` });
      res.end();
    });
    const trace = await followChain(web.url('deep.example', '/0'), opts());
    expect(trace.hops).toHaveLength(21);
    expect(trace.end).toEqual({ reason: 'too_many_redirects', hop: 20 });
    expect(web.hits('deep.example')).toBe(21);
    expect(trace.landing).toMatchObject({ botWall: false });
  });

  it('honours a smaller maxHops and lands when the chain fits exactly', async () => {
    web.route('deep.example', '*', (_req, res, ctx) => {
      const n = Number(ctx.url.pathname.slice(1));
      if (n >= 3) {
        res.end('<title>end</title>');
        return;
      }
      res.writeHead(302, { location: `/${n + 1}` });
      res.end();
    });
    expect((await followChain(web.url('deep.example', '/0'), opts({ maxHops: 3 }))).end).toEqual({ reason: 'landed' });
    const short = await followChain(web.url('deep.example', '/0'), opts({ maxHops: 2 }));
    expect(short.end).toEqual({ reason: 'too_many_redirects', hop: 2 });
    expect(short.hops).toHaveLength(3);
  });
});

describe('cookies across the chain', () => {
  it('sends a cookie set on hop 1 with hop 3, and records cookies without their values', async () => {
    web.redirect('www.awin1.com', '/cread.php', web.url('track.shop.example', '/t'), {
      setCookies: ['aw_ref=AWIN-SECRET-1; Max-Age=2592000; Path=/'],
    });
    web.redirect('track.shop.example', '/t', web.url('go.shop.example', '/g'), {
      setCookies: ['trk=TRACK-SECRET-2; Domain=shop.example; Path=/; Max-Age=604800; HttpOnly'],
    });
    web.redirect('go.shop.example', '/g', web.url('www.shop.example', '/landing'));
    web.page('www.shop.example', '/landing', {
      html: '<title>Shop</title>',
      setCookies: ['session=SESSION-SECRET-3; Path=/', 'gone=1; Max-Age=0'],
    });
    const trace = await followChain(web.url('www.awin1.com', '/cread.php'), opts());
    expect(trace.end.reason).toBe('landed');
    const landingRequest = web.requests.find((r) => r.host === 'www.shop.example');
    expect(landingRequest?.headers.cookie).toBe('trk=TRACK-SECRET-2');
    expect(web.requests.find((r) => r.host === 'go.shop.example')?.headers.cookie).toBe('trk=TRACK-SECRET-2');
    expect(web.requests.find((r) => r.host === 'www.awin1.com')?.headers.cookie).toBeUndefined();

    expect(trace.cookies.map((c) => [c.name, c.domain, c.setByHop, c.firstParty, c.expiryDays])).toEqual([
      ['aw_ref', 'www.awin1.com', 0, false, 30],
      ['trk', 'shop.example', 1, true, 7],
      ['session', 'www.shop.example', 3, true, null],
      // A deletion is recorded as such (expiry 0 days, in the past), so the analysis knows it no longer stands.
      ['gone', 'www.shop.example', 3, true, 0],
    ]);
    expect(trace.hops[1]?.cookies).toEqual([trace.cookies[1]]);
    expect(trace.hops[2]?.cookies).toEqual([]);
    const json = JSON.stringify(trace);
    for (const secret of ['AWIN-SECRET-1', 'TRACK-SECRET-2', 'SESSION-SECRET-3']) expect(json).not.toContain(secret);
  });

  it('decides first party against the landing registrable domain (example-shoes.co.uk)', async () => {
    web.redirect('click.tracker.example', '/c', web.url('www.example-shoes.co.uk', '/'), { setCookies: ['tid=1; Max-Age=60'] });
    web.page('www.example-shoes.co.uk', '/', {
      html: '<title>home</title>',
      setCookies: ['_uk=1; Domain=example-shoes.co.uk; Max-Age=86400'],
    });
    const trace = await followChain(web.url('click.tracker.example', '/c'), opts());
    expect(trace.cookies.map((c) => [c.name, c.firstParty])).toEqual([
      ['tid', false],
      ['_uk', true],
    ]);
  });
});

describe('browser-like requests', () => {
  it('sends Chrome-like headers, fetch metadata only over https', async () => {
    web.redirect('h.example', '/start', web.url('h.example', '/secure', true));
    web.page('h.example', '/secure', '<title>s</title>');
    await followChain(web.url('h.example', '/start'), opts());
    const [plain, secure] = web.requests;
    expect(plain?.headers).toMatchObject({
      'user-agent': DEFAULT_USER_AGENT,
      'accept-language': 'en-US,en;q=0.9',
      'accept-encoding': 'gzip, deflate, br',
      'upgrade-insecure-requests': '1',
    });
    expect(plain?.headers.accept).toMatch(/^text\/html,application\/xhtml\+xml/);
    expect(plain?.headers['sec-fetch-mode']).toBeUndefined();
    expect(secure?.headers).toMatchObject({
      'sec-fetch-site': 'none',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-user': '?1',
      'sec-fetch-dest': 'document',
      'sec-ch-ua-mobile': '?0',
    });
    expect(DEFAULT_USER_AGENT).toMatch(
      /^Mozilla\/5\.0 \(Windows NT 10\.0; Win64; x64\) AppleWebKit\/537\.36 \(KHTML, like Gecko\) Chrome\/\d+\.0\.0\.0 Safari\/537\.36$/,
    );
  });

  it('uses a custom user agent when given (and then no client hints)', async () => {
    web.page('h.example', '/p', '<title>p</title>');
    await followChain(web.url('h.example', '/p', true), opts({ userAgent: 'TrackcheckBot/1.0' }));
    expect(web.requests[0]?.headers['user-agent']).toBe('TrackcheckBot/1.0');
    expect(web.requests[0]?.headers['sec-ch-ua']).toBeUndefined();
  });

  it('reuses keep-alive connections across hops to the same host', async () => {
    const seen = new Set<number | undefined>();
    web.route('ka.example', '/3', (req, res) => {
      seen.add(req.socket.remotePort);
      res.end('<title>3</title>');
    });
    web.route('ka.example', '/1', (req, res) => {
      seen.add(req.socket.remotePort);
      res.writeHead(302, { location: '/2' });
      res.end();
    });
    web.route('ka.example', '/2', (req, res) => {
      seen.add(req.socket.remotePort);
      res.writeHead(302, { location: '/3' });
      res.end();
    });
    await followChain(web.url('ka.example', '/1'), opts());
    expect(web.hits('ka.example')).toBe(3);
    expect(seen.size).toBe(1);
  });

  it('times each hop from the request to the headers (injected latency shows up)', async () => {
    web.redirect('slow.example', '/a', '/b', { delayMs: 120 });
    web.page('slow.example', '/b', { html: '<title>b</title>', delayMs: 60 });
    const trace = await followChain(web.url('slow.example', '/a'), opts());
    expect(trace.hops[0]?.timeMs).toBeGreaterThanOrEqual(115);
    expect(trace.hops[1]?.timeMs).toBeGreaterThanOrEqual(55);
  });

  it('runs concurrent checks independently', async () => {
    web.redirect('c1.example', '/r', web.url('c2.example', '/p'), { setCookies: ['a=1'] });
    web.page('c2.example', '/p', '<title>p</title>');
    const traces = await Promise.all(Array.from({ length: 8 }, () => followChain(web.url('c1.example', '/r'), opts())));
    expect(traces.every((t) => t.end.reason === 'landed' && t.hops.length === 2 && t.cookies.length === 1)).toBe(true);
  });
});
