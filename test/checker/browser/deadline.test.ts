// One overall deadline per check, enforced (issue 13, point 4): a page that loops forever after a computed
// navigation used to keep its check running for over 20 minutes and, four at a time, starve the browser pool.
// Now the check ends at its deadline (a link check "could not verify", a cmp check failed with a clear
// error), the contexts are closed whatever the renderer is doing, and the pool serves the next check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserPool } from '../../../src/checker/browser/pool.js';
import { CheckCancelled, CheckerUnavailable, runCheck } from '../../../src/checker/check.js';
import { startAffiliateWeb, type AffiliateWeb } from '../../fixtures/affiliate-web.js';
import { CHROMIUM, createSimulatorPool, SKIP_REASON } from './browser-helpers.js';

const DEADLINE_MS = 6_000;

describe.skipIf(CHROMIUM === null)(`the check deadline${CHROMIUM === null ? ` (${SKIP_REASON})` : ''}`, () => {
  let web: AffiliateWeb;
  let pool: BrowserPool;
  const engine = () => ({ resolve: web.resolve, extraCaCerts: [web.caCert], browser: pool, deadlineMs: DEADLINE_MS });

  beforeAll(async () => {
    web = await startAffiliateWeb();
    // A computed navigation (only a browser can follow it) to a page that never gives its renderer back.
    web.page('go.spin.example', '/r', {
      html: `<script>location.href = [${JSON.stringify(web.url('www.spin-shop.example', '/p', true))}][0];</script>`,
    });
    web.page('www.spin-shop.example', '/p', '<title>Spin</title><script>setTimeout(function () { for (;;) {} }, 50);</script>');
    web.page('www.calm-shop.example', '/p', '<title>Calm shop</title>');
    web.page('go.calm.example', '/r', {
      html: `<script>location.href = [${JSON.stringify(web.url('www.calm-shop.example', '/p?awc=1_2', true))}][0];</script>`,
    });
    pool = await createSimulatorPool(web, { concurrency: 2 });
  });
  afterAll(async () => {
    await pool?.close();
    await web?.close();
  });

  it('ends a link check on a looping page at its deadline, "could not verify"', async () => {
    const started = Date.now();
    const result = await runCheck(web.url('go.spin.example', '/r', true), engine());
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 4_000);
    expect(result.issues.map((issue) => issue.code)).toContain('check_deadline_exceeded');
    expect(result.willTrack).toBe(false);
    expect(result.healthScore).toBeLessThanOrEqual(60);
  });

  it('fails a cmp check on a looping page at its deadline with a clear error', async () => {
    const started = Date.now();
    const error = await runCheck(web.url('www.spin-shop.example', '/p', true), { ...engine(), checkType: 'cmp' }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 4_000);
    expect(error).toBeInstanceOf(CheckerUnavailable);
    expect((error as CheckerUnavailable).code).toBe('check_deadline_exceeded');
  });

  it('four looping checks on a pool of two: all end, the pool is free again and serves an ordinary check', async () => {
    const started = Date.now();
    const spins = await Promise.all(Array.from({ length: 4 }, () => runCheck(web.url('go.spin.example', '/r', true), engine())));
    expect(spins.every((r) => r.issues.some((issue) => issue.code === 'check_deadline_exceeded'))).toBe(true);
    // Two at a time, each within its own deadline (queueing for the pool counts: it is the check's time too).
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 6_000);
    expect(pool.stats()).toMatchObject({ active: 0, queued: 0 });
    const calm = await runCheck(web.url('go.calm.example', '/r', true), engine());
    expect(calm.mode).toBe('browser');
    expect(calm.finalStatus).toBe(200);
    expect(pool.stats().launches).toBe(1);
  });

  it('a cancelled check (a shutdown) stops at once and says so, without an outcome', async () => {
    const cancel = new AbortController();
    const started = Date.now();
    setTimeout(() => cancel.abort(), 1_500);
    const error = await runCheck(web.url('go.spin.example', '/r', true), { ...engine(), signal: cancel.signal }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(CheckCancelled);
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
