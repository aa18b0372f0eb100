// The limits both engines run with by default, and the record of what one check actually ran with: kept with the
// stored result so the evidence file states the settings of that check, not those of the version serving it later.
import { VERSION } from '../lib/version.js';
import { DEFAULT_USER_AGENT } from './net/http-client.js';

/**
 * `checkTimeoutMs` bounds one pass along the chain (HTTP, or one browser visit); `deadlineMs` bounds the whole
 * check, every pass and consent scenario included, and is enforced (browser contexts are closed at it).
 */
export const DEFAULT_LIMITS = { maxHops: 20, hopTimeoutMs: 10_000, checkTimeoutMs: 30_000, deadlineMs: 120_000 } as const;
/** How much of each page the HTTP follower reads (the browser reads pages whole). */
export const DEFAULT_MAX_BODY_BYTES = 512 * 1024;

export interface EngineLimits {
  maxHops: number;
  hopTimeoutMs: number;
  checkTimeoutMs: number;
  /** The whole check; absent in records made before it existed. */
  deadlineMs?: number;
  /** Bytes of each page read; null in the browser, which reads pages whole. */
  maxBodyBytes: number | null;
}

export interface EngineRecord {
  /** The trackcheck version that ran the check. */
  version: string;
  /** "Chromium 156.0.8078.79" when the browser ran the check, else null. */
  browser: string | null;
  userAgent: string;
  limits: EngineLimits;
}

interface LimitOptions {
  maxHops?: number;
  hopTimeoutMs?: number;
  checkTimeoutMs?: number;
  deadlineMs?: number;
  maxBodyBytes?: number;
  userAgent?: string;
}

export function httpEngineRecord(options: LimitOptions): EngineRecord {
  return {
    version: VERSION,
    browser: null,
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    limits: {
      maxHops: options.maxHops ?? DEFAULT_LIMITS.maxHops,
      hopTimeoutMs: options.hopTimeoutMs ?? DEFAULT_LIMITS.hopTimeoutMs,
      checkTimeoutMs: options.checkTimeoutMs ?? DEFAULT_LIMITS.checkTimeoutMs,
      deadlineMs: options.deadlineMs ?? DEFAULT_LIMITS.deadlineMs,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    },
  };
}

/**
 * What a desktop Chrome of this version sends: Chromium's headless build announces itself as "HeadlessChrome",
 * which bot protection refuses on sight and no shopper's browser sends.
 */
export function browserUserAgent(chromiumVersion: string): string {
  const major = /^\d+/.exec(chromiumVersion)?.[0] ?? '0';
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

export function browserEngineRecord(options: LimitOptions, chromiumVersion: string): EngineRecord {
  const http = httpEngineRecord(options);
  return {
    ...http,
    browser: `Chromium ${chromiumVersion}`,
    userAgent: browserUserAgent(chromiumVersion),
    limits: { ...http.limits, maxBodyBytes: null },
  };
}

/** The settings line of the evidence file: "at most 20 redirects, 10 s per hop, …". */
export function describeLimits(limits: EngineLimits): string {
  const seconds = (ms: number) => `${Math.round(ms) / 1000} s`;
  const parts = [
    `at most ${limits.maxHops} redirects`,
    `${seconds(limits.hopTimeoutMs)} per hop`,
    `${seconds(limits.checkTimeoutMs)} per pass`,
  ];
  if (limits.deadlineMs !== undefined) parts.push(`${seconds(limits.deadlineMs)} per check in all`);
  if (limits.maxBodyBytes !== null) parts.push(`${Math.round(limits.maxBodyBytes / 1024)} KiB of each page read`);
  return parts.join(', ');
}
