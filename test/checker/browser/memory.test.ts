// Renderer memory is bounded (issue 13, point 5): a JavaScript allocation loop took the Chromium tree to 5.1 GB.
// Objects on V8's heap stop at the per-renderer heap limit (a quarter of TRACKCHECK_BROWSER_MEMORY_MB); memory
// outside it (array buffers) is stopped by the guard, which kills the largest renderer once the tree passes the
// ceiling. Either way the check ends and the pool goes on. The test samples the tree's memory itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processTree } from '../../../src/checker/browser/process-tree.js';
import type { BrowserPool } from '../../../src/checker/browser/pool.js';
import { runCheck } from '../../../src/checker/check.js';
import { startAffiliateWeb, type AffiliateWeb } from '../../fixtures/affiliate-web.js';
import { CHROMIUM, createSimulatorPool, SKIP_REASON } from './browser-helpers.js';

const CEILING_MB = 768;

describe.skipIf(CHROMIUM === null)(`browser memory ceilings${CHROMIUM === null ? ` (${SKIP_REASON})` : ''}`, () => {
  let web: AffiliateWeb;
  let pool: BrowserPool;
  let peakMb = 0;
  let sampler: NodeJS.Timeout;

  beforeAll(async () => {
    web = await startAffiliateWeb();
    const via = (path: string) =>
      `<script>location.href = [${JSON.stringify(web.url('www.hungry-shop.example', path, true))}][0];</script>`;
    web.page('go.hungry.example', '/objects', { html: via('/objects') });
    web.page('go.hungry.example', '/buffers', { html: via('/buffers') });
    web.page(
      'www.hungry-shop.example',
      '/objects',
      '<title>Objects</title><script>var a = []; for (;;) a.push({ x: Math.random(), y: [1, 2, 3] });</script>',
    );
    web.page(
      'www.hungry-shop.example',
      '/buffers',
      '<title>Buffers</title><script>var b = []; for (var i = 0; i < 40; i++) { var u = new Uint8Array(64e6); u.fill(i + 1); b.push(u); }</script>',
    );
    web.page('www.hungry-shop.example', '/calm', '<title>Calm</title>');
    web.page('go.hungry.example', '/calm', { html: via('/calm') });
    pool = await createSimulatorPool(web, { concurrency: 2, memoryCeilingMb: CEILING_MB });
    sampler = setInterval(() => {
      const pid = pool.stats().pid;
      if (pid === null) return;
      peakMb = Math.max(peakMb, processTree(pid).reduce((sum, p) => sum + p.memoryKb, 0) / 1024);
    }, 200);
  });
  afterAll(async () => {
    clearInterval(sampler);
    await pool?.close();
    await web?.close();
  });

  it('an object allocation loop ends at the renderer heap limit (not the guard); the check ends "could not verify"', async () => {
    const result = await runCheck(web.url('go.hungry.example', '/objects', true), {
      browser: pool,
      resolve: web.resolve,
      extraCaCerts: [web.caCert],
      deadlineMs: 30_000,
    });
    // The renderer died of its heap limit, so the browser pass has no page: the HTTP verdict stands.
    expect(result.willTrack).toBe(false);
    expect(result.issues.map((issue) => issue.code)).toContain('script_redirect_unresolved');
    expect(pool.stats().memoryKills).toBe(0);
    expect(peakMb).toBeLessThan(CEILING_MB);
  });

  it('buffers outside the V8 heap: the guard kills the renderer past the ceiling; the check ends, the pool goes on', async () => {
    const result = await runCheck(web.url('go.hungry.example', '/buffers', true), {
      browser: pool,
      resolve: web.resolve,
      extraCaCerts: [web.caCert],
      deadlineMs: 30_000,
    });
    expect(result.willTrack).toBe(false);
    expect(pool.stats().memoryKills).toBeGreaterThanOrEqual(1);
    // Sampled every 200 ms; the guard looks five times a second past half the ceiling, so the tree passes the
    // ceiling by at most what it allocates between two of its samples (more on a saturated machine).
    expect(peakMb).toBeLessThan(CEILING_MB + 1_024);
    const calm = await runCheck(web.url('go.hungry.example', '/calm', true), {
      browser: pool,
      resolve: web.resolve,
      extraCaCerts: [web.caCert],
    });
    expect(calm.finalStatus).toBe(200);
  });
});
