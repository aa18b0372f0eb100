// Channel validation at creation time (pure). URLs go through the checker's own submitted-URL rule, so a
// channel can never name what a check could not: a non-http(s) scheme, credentials, localhost or a literal
// private address. Host names are re-resolved and re-checked at every delivery (guarded-post.ts).
import { checkSubmittedUrl, type ResolveMap } from '../../checker/net/net-guard.js';
import type { Channel, ChannelError, ChannelErrorCode, ChannelParseResult, PublicChannel } from './types.js';

export interface ChannelRules {
  /** TRACKCHECK_SMTP_URL is set: without it email channels are refused. */
  smtpConfigured: boolean;
  /** TRACKCHECK_RESOLVE: hosts named there are allowed whatever their address. */
  resolve?: ResolveMap;
}

export const MAX_CHANNELS = 5;
export const MAX_CHANNEL_URL_LENGTH = 2048;
export const MIN_SECRET_LENGTH = 8;
export const MAX_SECRET_LENGTH = 256;
const MAX_EMAIL_LENGTH = 254;

const KEYS: Record<Channel['type'], readonly string[]> = {
  webhook: ['type', 'url', 'secret'],
  slack: ['type', 'url'],
  email: ['type', 'to'],
};

// One plain address (dot-atom local part, dotted domain): no display names, lists, comments or quoting,
// so the value can never smuggle a second recipient or a header into the message.
const EMAIL =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;

// Printable ASCII, spaces allowed: secrets travel into HMAC keys and shell snippets, never into headers.
const SECRET = /^[\x20-\x7e]+$/;

function fail(code: ChannelErrorCode, field: string, message: string): ChannelParseResult {
  return { ok: false, error: { code, message, field } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseUrl(raw: unknown, rules: ChannelRules): { ok: true; url: string } | { ok: false; result: ChannelParseResult } {
  if (raw === undefined) return { ok: false, result: fail('invalid_parameter', 'url', 'The channel needs a url.') };
  if (typeof raw === 'string' && raw.length > MAX_CHANNEL_URL_LENGTH) {
    return { ok: false, result: fail('invalid_url', 'url', `The url is longer than ${MAX_CHANNEL_URL_LENGTH} characters.`) };
  }
  const checked = checkSubmittedUrl(raw, rules.resolve);
  if (!checked.ok) {
    // The guard's messages speak of links to check; say what this refusal is about instead.
    const message = checked.message.replace(/\bchecked\b/g, 'used as an alert channel');
    return { ok: false, result: fail(checked.code, 'url', message) };
  }
  return { ok: true, url: checked.url.href };
}

function parseSecret(raw: unknown): { ok: true; secret: string | null } | { ok: false; result: ChannelParseResult } {
  if (raw === undefined || raw === null) return { ok: true, secret: null };
  const bad = (message: string) => ({ ok: false as const, result: fail('invalid_parameter', 'secret', message) });
  if (typeof raw !== 'string') return bad('The secret must be a string.');
  if (raw.length < MIN_SECRET_LENGTH || raw.length > MAX_SECRET_LENGTH) {
    return bad(`The secret must be ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters long.`);
  }
  if (!SECRET.test(raw)) return bad('The secret may only contain printable ASCII characters.');
  return { ok: true, secret: raw };
}

function parseEmail(raw: unknown, rules: ChannelRules): ChannelParseResult {
  if (!rules.smtpConfigured) {
    return fail('invalid_parameter', 'type', 'Email channels are not available: this server has no SMTP server configured.');
  }
  if (typeof raw !== 'string' || raw.trim() === '') return fail('invalid_parameter', 'to', 'The email channel needs a "to" address.');
  const to = raw.trim();
  if (to.length > MAX_EMAIL_LENGTH || !EMAIL.test(to)) {
    return fail('invalid_parameter', 'to', 'The "to" value must be one email address such as alerts@example.com.');
  }
  return { ok: true, channel: { type: 'email', to } };
}

/** Validates one channel as submitted in a request body. Unknown properties are refused: a typo must not drop a secret. */
export function parseChannel(input: unknown, rules: ChannelRules): ChannelParseResult {
  if (!isRecord(input)) return fail('invalid_parameter', '', 'A channel must be an object such as {"type":"webhook","url":"https://…"}.');
  const type = input.type;
  if (type !== 'webhook' && type !== 'slack' && type !== 'email') {
    return fail('invalid_parameter', 'type', 'The channel type must be "webhook", "slack" or "email".');
  }
  const unknown = Object.keys(input).find((key) => !KEYS[type].includes(key));
  if (unknown !== undefined) {
    return fail('invalid_parameter', unknown, `A ${type} channel has no "${unknown}" property (allowed: ${KEYS[type].join(', ')}).`);
  }
  if (type === 'email') return parseEmail(input.to, rules);
  const url = parseUrl(input.url, rules);
  if (!url.ok) return url.result;
  if (type === 'slack') return { ok: true, channel: { type: 'slack', url: url.url } };
  const secret = parseSecret(input.secret);
  if (!secret.ok) return secret.result;
  return { ok: true, channel: { type: 'webhook', url: url.url, secret: secret.secret } };
}

function prefixed(error: ChannelError, index: number): ChannelError {
  const field = error.field === '' ? `channels[${index}]` : `channels[${index}].${error.field}`;
  return { ...error, field };
}

/** Validates a request's `channels` list (0–5 entries); errors name the entry, e.g. `channels[1].url`. */
export function parseChannels(input: unknown, rules: ChannelRules): { ok: true; channels: Channel[] } | { ok: false; error: ChannelError } {
  if (!Array.isArray(input)) {
    return { ok: false, error: { code: 'invalid_parameter', field: 'channels', message: 'channels must be a list.' } };
  }
  if (input.length > MAX_CHANNELS) {
    const message = `A monitor has at most ${MAX_CHANNELS} channels.`;
    return { ok: false, error: { code: 'invalid_parameter', field: 'channels', message } };
  }
  const channels: Channel[] = [];
  for (const [index, entry] of input.entries()) {
    const parsed = parseChannel(entry, rules);
    if (!parsed.ok) return { ok: false, error: prefixed(parsed.error, index) };
    channels.push(parsed.channel);
  }
  return { ok: true, channels };
}

/** The view responses show: `{type, url|to, hasSecret}`, never the secret itself. */
export function publicChannel(channel: Channel): PublicChannel {
  switch (channel.type) {
    case 'webhook':
      return { type: 'webhook', url: channel.url, hasSecret: channel.secret !== null };
    case 'slack':
      return { type: 'slack', url: channel.url, hasSecret: false };
    case 'email':
      return { type: 'email', to: channel.to, hasSecret: false };
  }
}
