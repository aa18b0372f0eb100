// fetchDocument: the guarded fetch a scan reads its pages with (CONTRACT.md section 6) — redirects followed, every
// hop's address verified, the body capped, failures told apart; against the local affiliate web.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchDocument } from '../../src/checker/net/document-fetch.js';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';

describe('fetchDocument', () => {
  let web: AffiliateWeb;

  beforeAll(async () => {
    web = await startAffiliateWeb();
    web.redirect('www.blog.example', '/old', web.url('www.blog.example', '/new'), { status: 301 });
    web.page('www.blog.example', '/new', { html: '<title>New</title>', encoding: 'gzip' });
    web.page('www.blog.example', '/big', 'x'.repeat(100_000));
    web.page('www.blog.example', '/missing', { status: 404, html: 'no' });
    web.redirect('www.blog.example', '/inside', 'http://127.0.0.1:9/admin');
    web.redirect('www.blog.example', '/loop', web.url('www.blog.example', '/loop'));
  });
  afterAll(async () => {
    await web.close();
  });

  it('follows redirects to the final document, decoded', async () => {
    const doc = await fetchDocument(web.url('www.blog.example', '/old'), { resolve: web.resolve });
    expect(doc).toMatchObject({ ok: true, url: web.url('www.blog.example', '/new'), status: 200 });
    expect(doc.ok && doc.body.toString()).toBe('<title>New</title>');
  });

  it('reads at most maxBytes', async () => {
    const doc = await fetchDocument(web.url('www.blog.example', '/big'), { resolve: web.resolve, maxBytes: 1000 });
    expect(doc.ok && doc.body.length).toBe(1000);
  });

  it('refuses private addresses, also after a redirect, without connecting', async () => {
    const before = web.requests.length;
    expect(await fetchDocument('http://localhost:9/x', { resolve: web.resolve })).toMatchObject({
      ok: false,
      code: 'blocked_private_address',
    });
    expect(web.requests.length).toBe(before);
    expect(await fetchDocument(web.url('www.blog.example', '/inside'), { resolve: web.resolve })).toMatchObject({
      ok: false,
      code: 'blocked_private_address',
      url: 'http://127.0.0.1:9/admin',
    });
  });

  it('tells error statuses, endless redirects and unreachable hosts apart', async () => {
    expect(await fetchDocument(web.url('www.blog.example', '/missing'), { resolve: web.resolve })).toMatchObject({
      ok: false,
      code: 'error_status',
    });
    expect(await fetchDocument(web.url('www.blog.example', '/loop'), { resolve: web.resolve, maxRedirects: 3 })).toMatchObject({
      ok: false,
      code: 'too_many_redirects',
    });
    expect(await fetchDocument('http://www.blog.example:9/', { resolve: web.resolve })).toMatchObject({ ok: false, code: 'unreachable' });
  });
});
