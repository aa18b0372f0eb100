// The signed-in pages over app.inject() on a real database: API keys (create → use → revoke), CSRF on every form,
// "My checks", and the home form for signed-in users.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES } from '../helpers/databases.js';
import { bearer, startTestApp, type TestApp } from '../helpers/test-app.js';
import { Browser, csrfOf, signInWithLink } from './signin-helpers.js';

const KEY = /pg_live_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe.each(DATABASES)('settings and my checks on $name', (database) => {
  let t: TestApp;
  let alice: Browser;

  beforeEach(async () => {
    t = await startTestApp({ database, worker: false, env: { TRACKCHECK_SYNC_WAIT_MS: '0', TRACKCHECK_ANON_WEEKLY_CHECKS: '0' } });
    alice = new Browser(t.app);
    await signInWithLink(alice, t.dataDir, 'alice');
  });
  afterEach(async () => {
    await t.close();
  });

  it('creates a key (secret shown once), lists it, and the key works until it is revoked', async () => {
    const empty = await alice.get('/settings/keys');
    expect(empty.body).toContain('No API keys yet.');
    const created = await alice.submit('/settings/keys', '/settings/keys', { name: 'CI checker', expires: '' });
    expect(created.statusCode).toBe(201);
    const key = KEY.exec(created.body)?.[0] ?? '';
    expect(key).not.toBe('');
    expect(created.body).toContain('this is the only time trackcheck shows it');
    expect(created.body).toContain(`data-copy="${key}"`);
    expect(created.body).toContain('<script>'); // the copy button's script

    const listed = await alice.get('/settings/keys');
    expect(listed.body).not.toMatch(KEY); // never again
    expect(listed.body).toContain('CI checker');
    expect(listed.body).toContain(`<code>${key.slice(0, 12)}…</code>`);

    const api = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key) });
    expect(api.statusCode).toBe(200);
    const [summary] = api.json().data as { id: string; name: string }[];
    expect(summary?.name).toBe('CI checker');
    expect((await t.ctx.store.keys.findByHash((await import('../../src/auth/api-key.js')).hashApiKey(key)))?.user_id).toBe('alice');
    expect((await alice.get('/settings/keys')).body).toMatch(/Last used[\s\S]*<time datetime=/);

    const confirm = await alice.get(`/settings/keys/${summary?.id}/revoke`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Revoke this key?');
    const revoked = await alice.post(`/settings/keys/${summary?.id}/revoke`, { _csrf: csrfOf(confirm.body) });
    expect(revoked.statusCode).toBe(303);
    expect(revoked.headers.location).toBe('/settings/keys?notice=revoked');
    expect((await alice.get('/settings/keys?notice=revoked')).body).toContain('The key was revoked.');
    const refused = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key) });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('invalid_api_key');
  });

  it('creates a key with an expiry date and refuses bad input in the form', async () => {
    const future = new Date(t.clock.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const created = await alice.submit('/settings/keys', '/settings/keys', { name: 'expiring', expires: future });
    expect(created.statusCode).toBe(201);
    const day = new Date(`${future}T00:00:00.000Z`);
    const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][day.getUTCMonth()];
    const human = `${day.getUTCDate()} ${month} ${day.getUTCFullYear()}, 00:00 UTC`;
    expect(created.body).toContain(`<time datetime="${future}T00:00:00.000Z" title="${future} 00:00:00.000 UTC">${human}</time>`);

    const past = await alice.submit('/settings/keys', '/settings/keys', { name: 'old', expires: '2001-01-01' });
    expect(past.statusCode).toBe(400);
    expect(past.body).toContain('The expiry date must be in the future.');
    expect(past.body).toContain('value="old"');
    const unnamed = await alice.submit('/settings/keys', '/settings/keys', { name: '   ' });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.body).toContain('Give the key a name');
    const garbled = await alice.submit('/settings/keys', '/settings/keys', { name: 'x', expires: 'next tuesday' });
    expect(garbled.statusCode).toBe(400);
    for (const impossible of ['2030-02-30', '2030-13-01', '2030-04-31']) {
      const refused = await alice.submit('/settings/keys', '/settings/keys', { name: 'x', expires: impossible });
      expect(refused.statusCode, impossible).toBe(400);
      expect(refused.body).toContain('a date that exists');
    }
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(await t.sessionToken('alice')) })).json().data,
    ).toHaveLength(1);
  });

  it('refuses every form post without a valid CSRF token, and changes nothing', async () => {
    const { id } = await t.createKey('alice', { name: 'keep me' });
    const bob = new Browser(t.app);
    await signInWithLink(bob, t.dataDir, 'bob');
    const bobToken = csrfOf((await bob.get('/settings/keys')).body);
    const anonymousToken = csrfOf((await new Browser(t.app).get('/')).body);
    const posts: [string, Record<string, string>][] = [
      ['/settings/keys', { name: 'forged' }],
      [`/settings/keys/${id}/revoke`, {}],
      ['/', { url: 'https://www.example.com/' }],
      ['/auth/signout', {}],
    ];
    for (const [url, fields] of posts) {
      for (const token of [undefined, '', 'x'.repeat(43), bobToken, anonymousToken]) {
        const res = await alice.post(url, token === undefined ? fields : { ...fields, _csrf: token });
        expect(res.statusCode, `${url} with ${token}`).toBe(403);
        expect(res.body).toContain('<h1>Request refused</h1>');
        expect(res.body).toContain('security token is missing, expired, or from another session');
      }
    }
    const keys = (await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(await t.sessionToken('alice')) })).json()
      .data as unknown[];
    expect(keys).toHaveLength(1);
    expect(await t.ctx.store.db.selectFrom('checks').selectAll().execute()).toHaveLength(0);
    expect((await alice.get('/checks')).statusCode).toBe(200); // still signed in
  });

  it("cannot see or revoke another user's key", async () => {
    const { id } = await t.createKey('bob', { name: 'bobs key' });
    expect((await alice.get(`/settings/keys/${id}/revoke`)).statusCode).toBe(404);
    const page = await alice.get('/settings/keys');
    const res = await alice.post(`/settings/keys/${id}/revoke`, { _csrf: csrfOf(page.body) });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('Key not found');
    expect(
      (await t.ctx.store.db.selectFrom('api_keys').select('revoked_at').where('id', '=', id).executeTakeFirst())?.revoked_at,
    ).toBeNull();
  });

  it('the home form checks links as the signed-in user, without the anonymous weekly cap', async () => {
    const anonymous = new Browser(t.app);
    const refused = await anonymous.submit('/', '/', { url: 'https://www.example.com/a' });
    expect(refused.statusCode).toBe(429); // TRACKCHECK_ANON_WEEKLY_CHECKS=0
    const home = await alice.get('/');
    expect(home.body).toContain('Signed in as alice');
    for (const n of [1, 2, 3, 4]) {
      const res = await alice.post('/', { _csrf: csrfOf(home.body), url: `https://www.example.com/${n}` });
      expect(res.statusCode).toBe(303);
    }
    const rows = await t.ctx.store.db.selectFrom('checks').select(['user_id', 'url']).execute();
    expect(rows.map((r) => r.user_id)).toEqual(['alice', 'alice', 'alice', 'alice']);
  });

  it('anonymous browsers need the token too; scripts without cookies or Origin keep using the form', async () => {
    const open = await startTestApp({ database, worker: false, env: { TRACKCHECK_SYNC_WAIT_MS: '0' } });
    try {
      const visitor = new Browser(open.app);
      const forged = await visitor.post('/', { url: 'https://www.example.com/' });
      expect(forged.statusCode).toBe(403);
      const ok = await visitor.submit('/', '/', { url: 'https://www.example.com/' });
      expect(ok.statusCode).toBe(303);
      const script = await open.app.inject({
        method: 'POST',
        url: '/',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'url=https%3A%2F%2Fwww.example.com%2Fb',
      });
      expect(script.statusCode).toBe(303);
    } finally {
      await open.close();
    }
  });

  it('"My checks" lists the user\'s checks newest first, 25 a page, with verdict badges linking to reports', async () => {
    const session = bearer(await t.sessionToken('alice'));
    for (let i = 0; i < 30; i++) {
      t.clock.advance(1000);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/checks',
        headers: session,
        payload: { url: `https://www.example.com/p${i}` },
      });
      expect(res.statusCode).toBe(202);
    }
    await t.app.inject({
      method: 'POST',
      url: '/v1/checks',
      headers: bearer(await t.sessionToken('bob')),
      payload: { url: 'https://www.example.com/bob' },
    });
    const first = await alice.get('/checks');
    expect(first.statusCode).toBe(200);
    const urls = [...first.body.matchAll(/example\.com\/(p\d+|bob)<\/a>/g)].map((m) => m[1]);
    expect(urls).toEqual(Array.from({ length: 25 }, (_, i) => `p${29 - i}`));
    expect(first.body).toMatch(/<a class="vbadge vb-pending" href="\/r\/[0-9a-z]+">Checking…<\/a>/);
    const next = /href="(\/checks\?cursor=[^"]+)" rel="next"/.exec(first.body)?.[1] ?? '';
    const second = await alice.get(next.replace(/&amp;/g, '&'));
    expect([...second.body.matchAll(/example\.com\/(p\d+|bob)<\/a>/g)].map((m) => m[1])).toEqual(['p4', 'p3', 'p2', 'p1', 'p0']);
    expect(second.body).not.toContain('rel="next"');
    expect(second.body).toContain('← Newest checks');
    expect((await alice.get('/checks?cursor=garbage')).statusCode).toBe(400);
  });
});
