// Email sign-in links (issue 15): a visitor asks for a one-time sign-in link at an address, and the link arrives by
// email. The link is the one `trackcheck session-token --login-url` prints (auth/login-link.ts: signed, 15 minutes, spent on
// use), for the user `email:<normalised address>`. Abuse limits: per client address and per email address, in windows
// of an hour, on the same counter store as the per-minute limits (so shared through Redis across instances). Whatever
// the address, a valid request gets the same answer at once, and the mail is sent in the background: neither the page
// nor its timing tells whether the address has an account, whether its own limit was reached, or how its mail server
// answered.
import { createHash } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { createLimiter } from '../rate-limit/limiter.js';
import type { CounterStore } from '../rate-limit/store.js';
import type { Clock } from '../rate-limit/window.js';
import { DEFAULT_LOGIN_LINK_TTL_SECONDS, issueLoginLink } from '../auth/login-link.js';
import type { SignInMail } from './sign-in-mail.js';

export const EMAIL_USER_PREFIX = 'email:';
export const EMAIL_LINK_TTL_SECONDS = DEFAULT_LOGIN_LINK_TTL_SECONDS;
const EMAIL_LIMIT_WINDOW_MS = 60 * 60_000;
/** Sign-in emails to one address per hour: enough for a lost mail or two, too few to flood anyone's inbox. */
const EMAILS_PER_ADDRESS = 5;
/** Requests from one client address (IPv6: one /64) per hour: an office behind one NAT still fits. */
const REQUESTS_PER_CLIENT = 10;
/** Mails being handed to the SMTP server at once; past it requests are dropped (logged), not queued without bound. */
const MAX_SENDS_IN_FLIGHT = 50;
/** `email:` + the address must fit a user id (255 characters). */
export const MAX_ADDRESS_LENGTH = 255 - EMAIL_USER_PREFIX.length;

// One plain address: a dot-atom local part and a dotted domain (Unicode letters allowed, sent as punycode). No display
// names, quoting, comments, lists or whitespace, so the value can never carry a second recipient or a header.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const ASCII_DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export type AddressCheck = { ok: true; address: string } | { ok: false; message: string };

/**
 * The address as the user id keeps it: trimmed, lowercased (nobody expects Alice@ and alice@ to be two accounts), the
 * domain in its ASCII (punycode) form. Refused: anything but one plain address, line breaks and control characters.
 */
export function normaliseEmailAddress(raw: unknown, allowedDomains: readonly string[] | null = null): AddressCheck {
  const invalid = { ok: false as const, message: 'Enter one email address, such as you@example.com.' };
  if (typeof raw !== 'string') return invalid;
  const text = raw.trim();
  if (text === '') return { ok: false, message: 'Enter your email address.' };
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(text)) return invalid; // CR/LF above all: a header break
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) return invalid;
  const local = text.slice(0, at);
  const domain = domainToASCII(text.slice(at + 1).toLowerCase());
  if (local.length > 64 || !LOCAL_PART.test(local) || domain === '' || !ASCII_DOMAIN.test(domain)) return invalid;
  const address = `${local.toLowerCase()}@${domain}`;
  if (address.length > MAX_ADDRESS_LENGTH)
    return { ok: false, message: `An email address here has at most ${MAX_ADDRESS_LENGTH} characters.` };
  if (allowedDomains !== null && !allowedDomains.includes(domain)) {
    return { ok: false, message: `This server sends sign-in links to addresses at ${allowedDomains.join(', ')} only.` };
  }
  return { ok: true, address };
}

const emailUserId = (address: string) => `${EMAIL_USER_PREFIX}${address}`;

/** The address of a user signed in by email, for display; null for other users. */
export function emailOfUserId(userId: string): string | null {
  return userId.startsWith(EMAIL_USER_PREFIX) && userId.includes('@') ? userId.slice(EMAIL_USER_PREFIX.length) : null;
}

export type EmailLinkOutcome =
  | { kind: 'sent'; address: string }
  | { kind: 'invalid'; message: string }
  | { kind: 'client_limited'; retryAfterSeconds: number }
  /** The counter store did not answer: refused rather than sent unlimited. */
  | { kind: 'unavailable' };

export interface EmailSignInLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface EmailSignInDeps {
  loginLinkKey: Uint8Array;
  publicUrl(): string;
  clock: Clock;
  counters: CounterStore;
  mailer: SignInMail;
  allowedDomains: readonly string[] | null;
  log: EmailSignInLog;
}

export interface EmailSignIn {
  /** `client`: the requester's address as the rate limits count it (an IPv6 /64). */
  request(rawAddress: unknown, client: string): Promise<EmailLinkOutcome>;
  /** Settles when every mail started so far was handed over or failed (tests, shutdown). */
  idle(): Promise<void>;
}

// Counter keys never hold the address itself: a shared Redis is no place for a list of who signs in.
const addressKey = (address: string) => `email-signin:to:${createHash('sha256').update(address).digest('base64url')}`;

export function createEmailSignIn(deps: EmailSignInDeps): EmailSignIn {
  const limiter = createLimiter({ store: deps.counters, clock: deps.clock, windowMs: EMAIL_LIMIT_WINDOW_MS, failOpen: false });
  const inFlight = new Set<Promise<void>>();

  async function deliver(address: string): Promise<void> {
    const domain = address.slice(address.indexOf('@') + 1);
    try {
      const link = await issueLoginLink({
        key: deps.loginLinkKey,
        userId: emailUserId(address),
        publicUrl: deps.publicUrl(),
        ttlSeconds: EMAIL_LINK_TTL_SECONDS,
        nowMs: deps.clock.now(),
      });
      await deps.mailer.send(address, { url: link.url, expiresAt: link.expiresAt, publicUrl: deps.publicUrl() });
      deps.log.info({ domain }, 'email sign-in: link sent');
    } catch (err) {
      deps.log.warn({ domain, error: err instanceof Error ? err.message : String(err) }, 'email sign-in: the link could not be sent');
    }
  }

  return {
    async request(rawAddress, client) {
      try {
        // A refused address sends nothing, so only valid requests count (the per-minute page limit covers the rest).
        const checked = normaliseEmailAddress(rawAddress, deps.allowedDomains);
        if (!checked.ok) return { kind: 'invalid', message: checked.message };
        const byClient = await limiter.check(`email-signin:client:${client}`, REQUESTS_PER_CLIENT);
        if (!byClient.allowed) return { kind: 'client_limited', retryAfterSeconds: byClient.retryAfterSeconds };
        const { address } = checked;
        const byAddress = await limiter.check(addressKey(address), EMAILS_PER_ADDRESS);
        const domain = address.slice(address.indexOf('@') + 1);
        if (!byAddress.allowed) {
          deps.log.info({ domain }, 'email sign-in: not sent, the per-address limit is reached');
        } else if (inFlight.size >= MAX_SENDS_IN_FLIGHT) {
          deps.log.warn({ domain }, 'email sign-in: not sent, too many mails in flight');
        } else {
          const sending = deliver(address).finally(() => inFlight.delete(sending));
          inFlight.add(sending);
        }
        return { kind: 'sent', address };
      } catch (err) {
        deps.log.warn({ error: err instanceof Error ? err.message : String(err) }, 'email sign-in: rate-limit counters unavailable');
        return { kind: 'unavailable' };
      }
    },

    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
