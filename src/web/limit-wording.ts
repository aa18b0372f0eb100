// What a web visitor reads when a limit refuses them. The API keeps its contract's message (and Retry-After in
// seconds) for programs; a person gets the wait in words and only advice they can follow: "create an API key" is
// no help to someone who cannot sign in to create one.
import { formatDuration } from './time.js';

/** How a visitor of this server can sign in, if at all. */
export type SignInRoute = { kind: 'provider'; name: string } | { kind: 'email' } | { kind: 'link' } | null;

export interface LimitWording {
  message: string;
  /** A link to offer next to the message. */
  action?: { href: string; label: string };
}

export function anonymousCapWording(opts: {
  weeklyChecks: number;
  checkType: string;
  retryAfterSeconds: number;
  signIn: SignInRoute;
}): LimitWording {
  const reset = `The allowance resets on Monday at 00:00 UTC, in ${formatDuration(opts.retryAfterSeconds)}.`;
  const base = `Without an account, each address gets ${opts.weeklyChecks} ${opts.checkType} checks per week, and yours has used them. ${reset}`;
  switch (opts.signIn?.kind) {
    case 'provider':
      return {
        message: `${base} To check more now, sign in with ${opts.signIn.name}: signed-in checks have no weekly limit.`,
        action: { href: '/auth/signin', label: 'Sign in' },
      };
    case 'email':
      return {
        message: `${base} To check more now, sign in with your email address: trackcheck emails you a one-time link, and signed-in checks have no weekly limit.`,
        action: { href: '/auth/signin', label: 'Sign in by email' },
      };
    case 'link':
      return {
        message: `${base} To check more now, sign in: whoever runs this trackcheck can give you a one-time sign-in link, and signed-in checks have no weekly limit.`,
        action: { href: '/auth/signin', label: 'How to sign in' },
      };
    default:
      return { message: base };
  }
}

/** The wait a Retry-After header announces, in seconds (1 when absent or unreadable). */
export function retryAfterOf(headers: Record<string, string>): number {
  const seconds = Number(headers['retry-after']);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 1;
}
