import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/auth/api-key.js';
import { detectTokenKind, parseBearer, type TokenKind } from '../../src/auth/token-kind.js';

const KEY = 'pg_live_0f8fad5b-d9cb-469f-a165-70867728950e';
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwiZXhwIjo5OTk5OTk5OTk5fQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

describe('detectTokenKind', () => {
  const table: Array<[string, TokenKind]> = [
    [KEY, 'api_key'],
    [generateApiKey(), 'api_key'],
    ['pg_live_00000000-0000-0000-0000-000000000000', 'api_key'],
    // The contract's regex is lowercase hex: uppercase is not an API key (and not a JWT either).
    ['pg_live_0F8FAD5B-D9CB-469F-A165-70867728950E', 'invalid'],
    ['PG_LIVE_0f8fad5b-d9cb-469f-a165-70867728950e', 'invalid'],
    ['pg_test_0f8fad5b-d9cb-469f-a165-70867728950e', 'invalid'],
    ['pg_live_0f8fad5bd9cb469fa16570867728950e', 'invalid'],
    ['pg_live_0f8fad5b-d9cb-469f-a165-70867728950', 'invalid'],
    ['pg_live_0f8fad5b-d9cb-469f-a165-70867728950e0', 'invalid'],
    ['pg_live_0f8fad5b-d9cb-469f-a165-70867728950g', 'invalid'],
    [` ${KEY}`, 'invalid'],
    [`${KEY}\n`, 'invalid'],
    ['pg_live_', 'invalid'],
    [JWT, 'session'],
    ['eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', 'session'], // alg none: classified, then refused by the verifier
    ['a.b.c', 'session'],
    ['a-_.b-_.c-_', 'session'],
    ['.b.c', 'invalid'],
    ['a..c', 'invalid'],
    ['a.b', 'invalid'],
    ['a.b.c.d', 'invalid'],
    ['a.b.c.d.e', 'invalid'], // a JWE is not a session token
    ['a+b.c/d.e', 'invalid'], // base64, not base64url
    ['a=.b.c', 'invalid'],
    ['', 'invalid'],
    ['garbage', 'invalid'],
    ['Bearer abc', 'invalid'],
  ];
  it.each(table)('%j → %s', (token, kind) => {
    expect(detectTokenKind(token)).toBe(kind);
  });
});

describe('parseBearer', () => {
  const table: Array<[string | undefined, ReturnType<typeof parseBearer>]> = [
    [undefined, null],
    [`Bearer ${KEY}`, { ok: true, token: KEY }],
    [`Bearer ${JWT}`, { ok: true, token: JWT }],
    [`bearer ${KEY}`, { ok: true, token: KEY }],
    [`BEARER ${KEY}`, { ok: true, token: KEY }],
    [`Bearer   ${KEY}`, { ok: true, token: KEY }],
    [`  Bearer ${KEY}  `, { ok: true, token: KEY }],
    ['Bearer garbage', { ok: true, token: 'garbage' }], // well-formed header; the token kind decides next
    ['Bearer abc==', { ok: true, token: 'abc==' }],
    ['', { ok: false }],
    ['   ', { ok: false }],
    ['Bearer', { ok: false }],
    ['Bearer ', { ok: false }],
    [`Basic ${Buffer.from('user:pass').toString('base64')}`, { ok: false }],
    [`Token ${KEY}`, { ok: false }],
    [KEY, { ok: false }],
    [`Bearer ${KEY} extra`, { ok: false }],
    [`Bearer\t${KEY}`, { ok: false }],
    [`Bearer:${KEY}`, { ok: false }],
    [`Bearer "${KEY}"`, { ok: false }],
    ['Bearer a=b', { ok: false }],
    [`Bearer ${KEY}, Bearer ${KEY}`, { ok: false }],
  ];
  it.each(table)('%j → %j', (header, expected) => {
    expect(parseBearer(header)).toEqual(expected);
  });
});
