import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES } from '../helpers/databases.js';
import { bearer, startTestApp, type TestApp } from '../helpers/test-app.js';

describe.each(DATABASES)('API keys on $name', (database) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp({ database });
  });
  afterEach(async () => {
    await t.close();
  });

  it('creates a key shown once, with the contract fields', async () => {
    const token = await t.sessionToken('alice');
    const res = await t.app.inject({ method: 'POST', url: '/v1/keys', headers: bearer(token), payload: { name: 'CI pipeline' } });
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    expect(Object.keys(data).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'key', 'keyPrefix', 'name']);
    expect(data.key).toMatch(/^pg_live_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(data.keyPrefix).toBe(data.key.slice(0, 12));
    expect(data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.name).toBe('CI pipeline');
    expect(data.expiresAt).toBeNull();
    expect(new Date(data.createdAt).toISOString()).toBe(data.createdAt);

    const list = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(token) });
    expect(list.statusCode).toBe(200);
    const keys = list.json().data;
    expect(keys).toHaveLength(1);
    expect(Object.keys(keys[0]).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'keyPrefix', 'lastUsedAt', 'name']);
    expect(list.body).not.toContain(data.key);
  });

  it('uses a key, records lastUsedAt, lists newest first and revokes', async () => {
    const first = await t.createKey('alice', { name: 'first' });
    t.clock.advance(1000);
    const second = await t.createKey('alice', { name: 'second' });
    const list = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(first.key) });
    expect(list.statusCode).toBe(200);
    const names = list.json().data.map((k: { name: string }) => k.name);
    expect(names).toEqual(['second', 'first']);
    const used = list.json().data.find((k: { id: string }) => k.id === first.id);
    expect(used.lastUsedAt).not.toBeNull();

    const revoke = await t.app.inject({ method: 'DELETE', url: `/v1/keys/${second.id}`, headers: bearer(first.key) });
    expect(revoke.statusCode).toBe(200);
    expect(revoke.json().data.id).toBe(second.id);
    expect(new Date(revoke.json().data.revokedAt).toISOString()).toBe(revoke.json().data.revokedAt);

    const after = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(second.key) });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('invalid_api_key');
    const again = await t.app.inject({ method: 'DELETE', url: `/v1/keys/${second.id}`, headers: bearer(first.key) });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('not_found');
  });

  it('refuses to let a key revoke itself, and lets a session token do it', async () => {
    const { key, id } = await t.createKey('alice');
    const self = await t.app.inject({ method: 'DELETE', url: `/v1/keys/${id}`, headers: bearer(key) });
    expect(self.statusCode).toBe(409);
    expect(self.json().error).toMatchObject({ type: 'invalid_request_error', code: 'cannot_revoke_current_key' });
    const stillWorks = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key) });
    expect(stillWorks.statusCode).toBe(200);
    const bySession = await t.app.inject({ method: 'DELETE', url: `/v1/keys/${id}`, headers: bearer(await t.sessionToken('alice')) });
    expect(bySession.statusCode).toBe(200);
  });

  it("keeps users apart: B can neither see nor revoke A's keys", async () => {
    const a = await t.createKey('alice');
    const b = await t.createKey('bob');
    const listB = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(b.key) });
    expect(listB.json().data.map((k: { id: string }) => k.id)).toEqual([b.id]);
    const steal = await t.app.inject({ method: 'DELETE', url: `/v1/keys/${a.id}`, headers: bearer(b.key) });
    expect(steal.statusCode).toBe(404);
    expect(steal.json().error.code).toBe('not_found');
    const aStill = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(a.key) });
    expect(aStill.statusCode).toBe(200);
  });

  it('answers 404 for unknown and malformed key ids', async () => {
    const { key } = await t.createKey('alice');
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '%27%20or%201%3D1']) {
      const res = await t.app.inject({ method: 'DELETE', url: `/v1/keys/${id}`, headers: bearer(key) });
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });

  it('honours expiresAt: future only, then api_key_expired', async () => {
    const token = await t.sessionToken('alice');
    const expiresAt = new Date(t.clock.now() + 3600_000).toISOString();
    const res = await t.app.inject({ method: 'POST', url: '/v1/keys', headers: bearer(token), payload: { name: 'short', expiresAt } });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.expiresAt).toBe(expiresAt);
    const key = res.json().data.key;
    expect((await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key) })).statusCode).toBe(200);
    t.clock.advance(3600_000);
    const expired = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error).toMatchObject({ type: 'authentication_error', code: 'api_key_expired' });

    for (const bad of ['2020-01-01T00:00:00Z', 'tomorrow', '2027-13-45T00:00:00Z', '']) {
      const r = await t.app.inject({ method: 'POST', url: '/v1/keys', headers: bearer(token), payload: { name: 'x', expiresAt: bad } });
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().error.code).toBe('invalid_parameter');
    }
  });

  it('refuses impossible calendar dates and non-ISO-8601 forms of expiresAt, storing nothing (issue 13)', async () => {
    const token = await t.sessionToken('alice');
    const impossible = [
      '2030-02-30T00:00:00Z',
      '2030-02-29T00:00:00Z',
      '2100-02-29T12:00:00Z',
      '2030-04-31T00:00:00Z',
      '2030-00-10T00:00:00Z',
      '2030-01-00T00:00:00Z',
      '2030-01-01T24:00:00Z',
      '2030-01-01T23:60:00Z',
      '2030-01-01T23:59:60Z',
      '2030-01-01T00:00:00+24:00',
      '2030-01-01T00:00:00+05:60',
    ];
    const notIso = [
      '2030-01-01',
      '2030-01-01 00:00:00Z',
      '2030-01-01T00:00:00',
      '2030-1-1T00:00:00Z',
      'Tue, 01 Jan 2030 00:00:00 GMT',
      '01/01/2030',
      '1893456000',
      '+002030-01-01T00:00:00Z',
      '2030-01-01T00:00:00.Z',
      ' 2030-01-01T00:00:00Z',
    ];
    for (const bad of [...impossible, ...notIso]) {
      const r = await t.app.inject({ method: 'POST', url: '/v1/keys', headers: bearer(token), payload: { name: 'x', expiresAt: bad } });
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().error.code, bad).toBe('invalid_parameter');
    }
    expect((await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(token) })).json().data).toEqual([]);
    // Real dates, leap days and offsets still work, normalised to UTC.
    const good: Array<[string, string]> = [
      ['2032-02-29T00:00:00Z', '2032-02-29T00:00:00.000Z'],
      ['2030-12-31T23:59:59.999Z', '2030-12-31T23:59:59.999Z'],
      ['2030-06-01T02:30:00+02:00', '2030-06-01T00:30:00.000Z'],
      ['2030-06-01T00:30-0130', '2030-06-01T02:00:00.000Z'],
    ];
    for (const [input, stored] of good) {
      const r = await t.app.inject({ method: 'POST', url: '/v1/keys', headers: bearer(token), payload: { name: 'x', expiresAt: input } });
      expect(r.statusCode, input).toBe(201);
      expect(r.json().data.expiresAt, input).toBe(stored);
    }
  });

  it('validates the name', async () => {
    const token = await t.sessionToken('alice');
    const cases: [unknown, string][] = [
      [{}, 'missing_parameter'],
      [{ name: '' }, 'invalid_parameter'],
      [{ name: '   ' }, 'invalid_parameter'],
      [{ name: 'x'.repeat(101) }, 'invalid_parameter'],
      [{ name: 42 }, 'invalid_parameter'],
      [{ name: 'ok', extra: true }, 'invalid_parameter'],
      [[], 'invalid_json'],
      ['"just a string"', 'invalid_json'],
    ];
    for (const [payload, code] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/keys',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code, JSON.stringify(payload)).toBe(code);
    }
    const list = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(token) });
    expect(list.json().data).toEqual([]);
  });

  it('never stores or logs the raw key', async () => {
    const { key } = await t.createKey('alice');
    await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key) });
    await t.app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key.replace(/.$/, '0')) });
    expect(t.logs()).toContain('/v1/keys');
    expect(t.logs()).not.toContain(key);
    expect(t.logs()).not.toContain(key.slice(8));
    if (t.database.file) {
      const dir = path.dirname(t.database.file);
      for (const name of readdirSync(dir)) {
        const bytes = readFileSync(path.join(dir, name)).toString('latin1');
        expect(bytes, name).not.toContain(key.slice(8));
      }
    } else {
      const rows = await t.ctx.store.db.selectFrom('api_keys').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(key.slice(8));
    }
  });
});
