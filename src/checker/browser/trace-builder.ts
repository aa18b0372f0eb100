// Turns the recorded navigations into the same ChainTrace the HTTP follower produces: hops in order with
// kind, status, Location, timing, parameter changes and cookies, and how the chain ended.
import { performance } from 'node:perf_hooks';
import type { BrowserContext, Page } from 'playwright-core';
import { describeBlocked } from '../net/net-guard.js';
import { headerValue } from '../follow/page-facts.js';
import { pageFactsOf } from '../follow/page-read.js';
import { readPageOffThread } from '../follow/page-reader.js';
import { unreachableStart } from '../follow/chain-start.js';
import type { ChainEnd, ChainTrace, Hop, HopKind, PageFacts } from '../types.js';
import { ownersFromSetCookie, toCookieRecords } from './browser-cookies.js';
import type { EgressSession } from './egress-proxy.js';
import { REFUSED_HEADER } from './egress-wire.js';
import { describeNetError } from './net-errors.js';
import { runPageScript } from './page-script.js';
import type { NavRecord, NavRecorder } from './nav-recorder.js';
import type { SettleEnd } from './settle.js';

export interface TraceInput {
  startUrl: string;
  page: Page;
  context: BrowserContext;
  recorder: NavRecorder;
  egress: EgressSession;
  end: SettleEnd;
  maxHops: number;
  hopTimeoutMs: number;
  checkTimeoutMs: number;
}

const CONTENT_TIMEOUT_MS = 3_000;
const HTML_TYPE = /^\s*(text\/html|application\/xhtml\+xml)\b/i;

const seconds = (ms: number): string => String(Math.round(ms) / 1000);

function queryNames(url: string): string[] {
  try {
    return [...new Set(new URL(url).searchParams.keys())];
  } catch {
    return [];
  }
}

/** A navigation that was abandoned for a newer one before any answer (not a hop the shopper made). */
function superseded(record: NavRecord, index: number, all: readonly NavRecord[]): boolean {
  return record.response === null && record.failure !== null && index < all.length - 1 && /ERR_ABORTED/.test(record.failure);
}

function kindOf(record: NavRecord, index: number, recorder: NavRecorder): HopKind {
  if (index === 0 || record.redirect) return 'http';
  const reason = recorder.takeReason(record.url);
  return reason === 'metaTagRefresh' || reason === 'httpHeaderRefresh' ? 'meta-refresh' : 'javascript';
}

/**
 * A hop's time as Chromium's network stack measured it (Resource Timing: request start to the response headers
 * of a redirect, to the end of the body otherwise). When the checker is busy — launching the browser, running
 * other checks — Playwright delivers its events late; those delays are the checker's, not the merchant's, so
 * the times seen in Node are only a fallback for a request the browser gave no timing for.
 */
function timeOf(record: NavRecord): number {
  const isRedirect = record.response !== null && record.response.status() >= 300 && record.response.status() < 400;
  const timing = record.request.timing();
  const measured = isRedirect ? timing.responseStart : timing.responseEnd >= 0 ? timing.responseEnd : timing.responseStart;
  if (measured >= 0) return Math.round(measured);
  const end = isRedirect ? (record.respondedAt ?? record.finishedAt) : (record.finishedAt ?? record.respondedAt);
  return Math.round((end ?? performance.now()) - record.startedAt);
}

/** The proxy's own answer (a refusal or an upstream failure), never a site's: the proxy strips this header upstream. */
function proxyAnswered(record: NavRecord): boolean {
  return record.response !== null && record.response.headers()[REFUSED_HEADER] !== undefined;
}

async function cookieHeaderOf(record: NavRecord): Promise<string> {
  // Playwright learns a request's final headers with its response; without one it would wait for it.
  if (record.response === null) return '';
  try {
    return (await record.request.headerValue('cookie')) ?? '';
  } catch {
    return '';
  }
}

/** Where the loop starts and where it closes, or null: the same URL requested again with the same cookies. */
async function findLoop(records: readonly NavRecord[]): Promise<{ first: number; repeat: number } | null> {
  const cookieHeaders = await Promise.all(records.map(cookieHeaderOf));
  const seen = new Map<string, number>();
  for (let i = 0; i < records.length; i += 1) {
    const url = records[i]?.url ?? '';
    const key = `${url.split('#')[0] ?? url}\n${cookieHeaders[i] ?? ''}`;
    const first = seen.get(key);
    if (first !== undefined) return { first, repeat: i };
    seen.set(key, i);
  }
  return null;
}

async function setCookiesOf(record: NavRecord): Promise<string[]> {
  if (record.response === null || proxyAnswered(record)) return [];
  try {
    return (await record.response.headersArray()).filter((h) => h.name.toLowerCase() === 'set-cookie').flatMap((h) => h.value.split('\n'));
  } catch {
    return [];
  }
}

async function readLanding(page: Page, record: NavRecord, committed: boolean): Promise<PageFacts | null> {
  const response = record.response;
  if (response === null) return null;
  const headers = response.headers();
  const type = headerValue(headers, 'content-type');
  let html: string | null = null;
  if (committed && (type === undefined || type.trim() === '' || HTML_TYPE.test(type))) {
    // The rendered DOM (scripts may add JSON-LD), read in the page's own world: page.content() would first
    // build Playwright's utility world, which costs more than the rest of the read. Bounded in time: a page
    // that keeps navigating must not hold the check.
    const read = await runPageScript(page, 'read-document', null, CONTENT_TIMEOUT_MS);
    html = read.kind === 'done' && typeof read.value === 'string' ? read.value : null;
  }
  // The browser ran the page's scripts already: only the facts are read, not the script navigations.
  return pageFactsOf(await readPageOffThread(response.status(), headers, html, undefined, false), headers, false);
}

export async function buildBrowserTrace(input: TraceInput): Promise<ChainTrace> {
  const { recorder, egress, end } = input;
  if (end.kind === 'not_started') return unreachableStart(input.startUrl, end.error);
  let records = recorder.navs.filter((record, index, all) => !superseded(record, index, all));
  let chainEnd: ChainEnd = { reason: 'landed' };
  if (records.length > input.maxHops + 1 || end.kind === 'hop_limit') {
    records = records.slice(0, input.maxHops + 1);
    chainEnd = { reason: 'too_many_redirects', hop: records.length - 1 };
  }
  const loop = await findLoop(records);
  if (loop !== null) {
    records = records.slice(0, loop.repeat);
    chainEnd = { reason: 'redirect_loop', hop: loop.first };
  }

  const hops: Hop[] = [];
  for (let i = 0; i < records.length; i += 1) {
    const record = records[i] as NavRecord; // i < length
    const previous = hops[i - 1];
    const before = previous === undefined ? [] : queryNames(previous.url);
    const after = queryNames(record.url);
    const status = record.response === null || proxyAnswered(record) ? null : record.response.status();
    const location = status !== null && status >= 300 && status < 400 ? (record.response?.headers()['location'] ?? null) : null;
    const hop: Hop = {
      url: record.url,
      status,
      location,
      kind: kindOf(record, i, recorder),
      timeMs: timeOf(record),
      network: null,
      paramsAdded: previous === undefined ? [] : after.filter((n) => !before.includes(n)),
      paramsRemoved: previous === undefined ? [] : before.filter((n) => !after.includes(n)),
      cookies: [],
      error: null,
    };
    hops.push(hop);
    if (status !== null) continue;
    // No answer from the site: refused by the guard, failed upstream, or failed in the browser.
    const failure = egress.findFailure(record.url);
    if (failure?.outcome === 'blocked') {
      hop.error = describeBlocked(failure.range ?? 'private');
      chainEnd = { reason: 'blocked_private_address', hop: i, address: failure.address ?? '' };
    } else if (end.kind === 'hop_timeout' && i === records.length - 1 && record.response === null) {
      hop.error = `timed out after ${seconds(input.hopTimeoutMs)} s`;
      chainEnd = { reason: 'unreachable', hop: i, error: hop.error };
    } else if (end.kind === 'check_timeout' && i === records.length - 1 && record.response === null) {
      hop.error = `check timed out after ${seconds(input.checkTimeoutMs)} s`;
      chainEnd = { reason: 'check_timeout', hop: i };
    } else if (/ERR_TOO_MANY_REDIRECTS/.test(record.failure ?? '')) {
      hop.error = 'too many redirects';
      chainEnd = { reason: 'too_many_redirects', hop: i };
    } else {
      hop.error = failure?.error ?? describeNetError(record.failure ?? 'no response', record.url);
      chainEnd = { reason: 'unreachable', hop: i, error: hop.error };
    }
    hops.splice(i + 1);
    break;
  }
  if (chainEnd.reason === 'landed' && end.kind === 'check_timeout') {
    chainEnd = { reason: 'check_timeout', hop: hops.length - 1 };
  }

  const kept = records.slice(0, hops.length);
  const last = kept[kept.length - 1];
  const lastHop = hops[hops.length - 1];
  const readsLanding = last !== undefined && lastHop?.status !== null && chainEnd.reason === 'landed';
  // Independent reads of the browser's state, done together.
  const [setCookies, landing, contextCookies] = await Promise.all([
    Promise.all(kept.map(async (record) => ({ url: record.url, setCookies: await setCookiesOf(record) }))),
    readsLanding ? readLanding(input.page, last, recorder.committedIndex === recorder.navs.indexOf(last)) : Promise.resolve(null),
    input.context.cookies(),
  ]);
  const cookies = toCookieRecords(
    contextCookies,
    hops.map((hop) => hop.url),
    ownersFromSetCookie(setCookies),
  );
  for (const cookie of cookies) hops[cookie.setByHop]?.cookies.push(cookie);
  return { hops, end: chainEnd, landing, cookies };
}
