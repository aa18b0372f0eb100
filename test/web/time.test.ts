// Times and waits in words: what the pages show instead of raw ISO instants and counts of seconds.
import { describe, expect, it } from 'vitest';
import { anonymousCapWording, retryAfterOf } from '../../src/web/limit-wording.js';
import { formatDuration, formatMs, humanUtc, timeElement } from '../../src/web/time.js';

describe('times in words', () => {
  it('shows an instant as day, month, year and minute in UTC, the exact instant in datetime and title', () => {
    expect(humanUtc(new Date('2026-11-24T14:05:07.123Z'))).toBe('24 Nov 2026, 14:05 UTC');
    expect(timeElement('2026-01-03T09:00:00Z')).toBe(
      '<time datetime="2026-01-03T09:00:00.000Z" title="2026-01-03 09:00:00.000 UTC">3 Jan 2026, 09:00 UTC</time>',
    );
    expect(timeElement('not a date <b>')).toBe('not a date &lt;b&gt;');
  });

  it('says how long to wait in the two largest units', () => {
    expect(formatDuration(468_437)).toBe('5 days 10 hours');
    expect(formatDuration(86_400)).toBe('1 day');
    expect(formatDuration(3 * 3600 + 12 * 60 + 5)).toBe('3 hours 12 minutes');
    expect(formatDuration(3600)).toBe('1 hour');
    expect(formatDuration(125)).toBe('2 minutes 5 seconds');
    expect(formatDuration(600)).toBe('10 minutes');
    expect(formatDuration(1)).toBe('1 second');
    expect(formatDuration(0.2)).toBe('1 second');
  });

  it('gives a hop time short enough for the picture', () => {
    expect(formatMs(412.4)).toBe('412 ms');
    expect(formatMs(10_000)).toBe('10.0 s');
    expect(formatMs(123_456)).toBe('123 s');
  });
});

describe('the weekly cap in words for a web visitor', () => {
  const base = { weeklyChecks: 3, checkType: 'link', retryAfterSeconds: 468_437 };

  it('tells when the allowance resets, in days and hours, never in seconds, and never to create an API key', () => {
    for (const signIn of [
      null,
      { kind: 'link' as const },
      { kind: 'email' as const },
      { kind: 'provider' as const, name: 'login.example.com' },
    ]) {
      const { message } = anonymousCapWording({ ...base, signIn });
      expect(message).toContain('3 link checks per week');
      expect(message).toContain('resets on Monday at 00:00 UTC, in 5 days 10 hours.');
      expect(message).not.toMatch(/seconds|API key/);
    }
  });

  it('says how to sign in only where sign-in is set up', () => {
    expect(anonymousCapWording({ ...base, signIn: null })).toEqual({ message: expect.not.stringContaining('sign in') });
    expect(anonymousCapWording({ ...base, signIn: { kind: 'provider', name: 'login.example.com' } })).toMatchObject({
      message: expect.stringContaining('sign in with login.example.com'),
      action: { href: '/auth/signin', label: 'Sign in' },
    });
    expect(anonymousCapWording({ ...base, signIn: { kind: 'email' } })).toMatchObject({
      message: expect.stringContaining('sign in with your email address'),
      action: { href: '/auth/signin', label: 'Sign in by email' },
    });
    expect(anonymousCapWording({ ...base, signIn: { kind: 'link' } })).toMatchObject({
      message: expect.stringContaining('one-time sign-in link'),
      action: { href: '/auth/signin', label: 'How to sign in' },
    });
  });

  it('reads the wait from Retry-After', () => {
    expect(retryAfterOf({ 'retry-after': '468437' })).toBe(468_437);
    expect(retryAfterOf({})).toBe(1);
  });
});
