import { describe, expect, it } from 'vitest';
import { parseChannel, parseChannels, publicChannel } from '../../../src/services/alerts/index.js';
import { RESOLVE } from './helpers.js';

const rules = { smtpConfigured: true };

function errorOf(input: unknown, r: Parameters<typeof parseChannel>[1] = rules) {
  const result = parseChannel(input, r);
  if (result.ok) throw new Error(`expected a refusal for ${JSON.stringify(input)}`);
  return result.error;
}

describe('parseChannel', () => {
  it('accepts the three channel shapes', () => {
    expect(parseChannel({ type: 'webhook', url: 'https://hooks.example.com/t', secret: 'whsec_0123456789' }, rules)).toEqual({
      ok: true,
      channel: { type: 'webhook', url: 'https://hooks.example.com/t', secret: 'whsec_0123456789' },
    });
    expect(parseChannel({ type: 'webhook', url: 'http://hooks.example.com' }, rules)).toEqual({
      ok: true,
      channel: { type: 'webhook', url: 'http://hooks.example.com/', secret: null },
    });
    expect(parseChannel({ type: 'slack', url: 'https://hooks.slack.com/services/T0/B0/x' }, rules)).toEqual({
      ok: true,
      channel: { type: 'slack', url: 'https://hooks.slack.com/services/T0/B0/x' },
    });
    expect(parseChannel({ type: 'email', to: ' alerts@example.com ' }, rules)).toEqual({
      ok: true,
      channel: { type: 'email', to: 'alerts@example.com' },
    });
    expect(parseChannel({ type: 'webhook', url: 'https://h.example.com/', secret: null }, rules)).toMatchObject({ ok: true });
  });

  it.each([
    ['ftp://hooks.example.com/x', 'url_not_allowed'],
    ['javascript:alert(1)', 'url_not_allowed'],
    ['file:///etc/passwd', 'url_not_allowed'],
    ['http://127.0.0.1:8080/hook', 'url_not_allowed'],
    ['http://[::1]/hook', 'url_not_allowed'],
    ['http://10.0.0.7/hook', 'url_not_allowed'],
    ['http://192.168.1.1/hook', 'url_not_allowed'],
    ['http://169.254.169.254/latest/meta-data', 'url_not_allowed'],
    ['http://100.64.0.1/', 'url_not_allowed'],
    ['http://[::ffff:10.0.0.1]/', 'url_not_allowed'],
    ['http://0.0.0.0/', 'url_not_allowed'],
    ['http://localhost:3000/hook', 'url_not_allowed'],
    ['http://app.localhost/hook', 'url_not_allowed'],
    ['https://user:pw@hooks.example.com/', 'url_not_allowed'],
    ['not a url', 'invalid_url'],
    ['', 'invalid_url'],
    [`https://hooks.example.com/${'a'.repeat(2100)}`, 'invalid_url'],
  ])('refuses the url %s with %s', (url, code) => {
    for (const type of ['webhook', 'slack']) {
      const error = errorOf({ type, url });
      expect(error.code).toBe(code);
      expect(error.field).toBe('url');
      expect(error.message).not.toMatch(/checked/);
    }
  });

  it('lets TRACKCHECK_RESOLVE hosts through, but not literal loopback addresses', () => {
    expect(parseChannel({ type: 'webhook', url: 'http://hooks.example.test:9999/h' }, { ...rules, resolve: RESOLVE })).toMatchObject({
      ok: true,
    });
    expect(errorOf({ type: 'webhook', url: 'http://127.0.0.1:9999/h' }, { ...rules, resolve: RESOLVE }).code).toBe('url_not_allowed');
  });

  it('refuses email channels when SMTP is not configured', () => {
    const error = errorOf({ type: 'email', to: 'alerts@example.com' }, { smtpConfigured: false });
    expect(error).toMatchObject({ code: 'invalid_parameter', field: 'type' });
    expect(error.message).toMatch(/SMTP/);
  });

  it.each([
    'alerts',
    'alerts@example',
    '@example.com',
    'a b@example.com',
    'a@example.com, b@example.com',
    'a@example.com\r\nBcc: b@example.com',
    'Alerts <a@example.com>',
    '"a"@example.com',
    'a@[10.0.0.1]',
    'a@-example.com',
    `${'a'.repeat(250)}@example.com`,
  ])('refuses the malformed address %j', (to) => {
    expect(errorOf({ type: 'email', to })).toMatchObject({ code: 'invalid_parameter', field: 'to' });
  });

  it('accepts internationalised domains and plus addressing', () => {
    expect(parseChannel({ type: 'email', to: 'ops+alerts@bücher.example' }, rules)).toMatchObject({ ok: true });
  });

  it.each([
    ['short', 'too short'],
    ['x'.repeat(257), 'too long'],
    ['', 'empty'],
    ['tab\tinside-secret', 'a control character'],
    ['ünïcödé-secret', 'non-ASCII'],
  ])('refuses the secret %#: %s', (secret) => {
    expect(errorOf({ type: 'webhook', url: 'https://h.example.com/', secret })).toMatchObject({
      code: 'invalid_parameter',
      field: 'secret',
    });
  });

  it('refuses a non-string secret, unknown properties, bad types and non-objects', () => {
    expect(errorOf({ type: 'webhook', url: 'https://h.example.com/', secret: 12345678 }).field).toBe('secret');
    expect(errorOf({ type: 'webhook', url: 'https://h.example.com/', secert: 'whsec_0123456789' })).toMatchObject({
      code: 'invalid_parameter',
      field: 'secert',
    });
    expect(errorOf({ type: 'slack', url: 'https://h.example.com/', secret: 'whsec_0123456789' }).field).toBe('secret');
    expect(errorOf({ type: 'sms', to: '+1555' }).field).toBe('type');
    expect(errorOf({ url: 'https://h.example.com/' }).field).toBe('type');
    expect(errorOf('https://h.example.com/').code).toBe('invalid_parameter');
    expect(errorOf(null).code).toBe('invalid_parameter');
    expect(errorOf({ type: 'webhook' })).toMatchObject({ code: 'invalid_parameter', field: 'url' });
    expect(errorOf({ type: 'email' })).toMatchObject({ code: 'invalid_parameter', field: 'to' });
  });
});

describe('parseChannels', () => {
  it('accepts 0 to 5 channels and names the failing entry', () => {
    expect(parseChannels([], rules)).toEqual({ ok: true, channels: [] });
    const five = Array.from({ length: 5 }, (_, i) => ({ type: 'webhook', url: `https://h${i}.example.com/` }));
    expect(parseChannels(five, rules)).toMatchObject({ ok: true });
    expect(parseChannels([...five, five[0]], rules)).toMatchObject({ ok: false, error: { code: 'invalid_parameter', field: 'channels' } });
    expect(parseChannels('x', rules)).toMatchObject({ ok: false, error: { field: 'channels' } });
    const bad = parseChannels(
      [
        { type: 'slack', url: 'https://h.example.com/' },
        { type: 'webhook', url: 'http://10.1.1.1/' },
      ],
      rules,
    );
    expect(bad).toMatchObject({ ok: false, error: { code: 'url_not_allowed', field: 'channels[1].url' } });
    expect(parseChannels([42], rules)).toMatchObject({ ok: false, error: { field: 'channels[0]' } });
  });
});

describe('publicChannel', () => {
  it('shows {type, url|to, hasSecret} and never the secret', () => {
    const secret = 'whsec_do-not-show-me';
    const view = publicChannel({ type: 'webhook', url: 'https://h.example.com/', secret });
    expect(view).toEqual({ type: 'webhook', url: 'https://h.example.com/', hasSecret: true });
    expect(JSON.stringify(view)).not.toContain(secret);
    expect(publicChannel({ type: 'webhook', url: 'https://h.example.com/', secret: null })).toEqual({
      type: 'webhook',
      url: 'https://h.example.com/',
      hasSecret: false,
    });
    expect(publicChannel({ type: 'slack', url: 'https://hooks.slack.com/x' })).toEqual({
      type: 'slack',
      url: 'https://hooks.slack.com/x',
      hasSecret: false,
    });
    expect(publicChannel({ type: 'email', to: 'a@example.com' })).toEqual({ type: 'email', to: 'a@example.com', hasSecret: false });
  });
});
