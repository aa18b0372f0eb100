// The hop picture drawn in a real Chromium at desktop, breakpoint and phone widths, from chains users hit: a 10 s
// hop (its time label used to sit under the badge), a hop that timed out with the click id on its URL (it used to
// say "✓ awc"), the longest hosts and details the rows allow. Every text must stay apart from every other and from
// the badges, and no text may be drawn smaller than 11 CSS pixels.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hop } from '../../src/checker/types.js';
import { clickIdStates, renderHopPicture, summarizeHops } from '../../src/web/hop-picture.js';
import { STYLES } from '../../src/web/styles.js';
import { auditHopPicture } from '../helpers/page-audit.js';
import { hop, redirect } from '../checker/analyze-fixtures.js';
import { launchVisitor } from '../helpers/visitor-browser.js';

const CHROMIUM = process.env.TRACKCHECK_CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);

const LANDING = 'https://www.example-shoes.co.uk/trainers/air-zoom?awc=12345_1700000000_abcdef';
/** Wider than any real host in the catalogue: truncated to the row's budget, it must still end before the bar. */
const WIDE_HOST = 'https://www.mmmwww-extremely-wide-merchant-hostname-example.co.uk/x?awc=1';

/** Awin → a 10 s tracker hop (the slowest: a full bar) → a landing that timed out; the widest host a row can hold. */
const SLOW_THEN_TIMEOUT: Hop[] = [
  redirect('https://www.awin1.com/cread.php?awinmid=12345&awinaffid=1', `${LANDING}`, {
    timeMs: 180,
    network: { id: 'awin', name: 'Awin', role: 'network' },
  }),
  redirect(WIDE_HOST, LANDING, { timeMs: 10_000, cookies: [] }),
  redirect('https://t.example/?awc=12345_1', LANDING, { timeMs: 900 }),
  hop(LANDING, { status: null, error: 'timed out after 8000 ms waiting for the response headers', timeMs: 8_000 }),
];

/** Every other badge: the click id arrives, is lost, stays missing; and a chain it never reaches. */
const LOST: Hop[] = [
  redirect('https://www.awin1.com/cread.php?awinmid=12345&awinaffid=1', LANDING, { timeMs: 80 }),
  redirect('https://t.example/?awc=12345_1', 'https://shop.example/p', { timeMs: 100 }),
  redirect('https://shop.example/p', 'https://shop.example/', { timeMs: 123_456 }),
  hop('https://shop.example/', { timeMs: 90 }),
];
const NEVER: Hop[] = [redirect('https://www.awin1.com/cread.php?awinmid=1', 'https://shop.example/'), hop('https://shop.example/')];

const html = (
  body: string,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLES}</style></head>
<body><main id="main"><figure>${body}<figcaption>caption</figcaption></figure></main></body></html>`;

describe('the hop picture states', () => {
  it('never marks a hop without a response as carrying the click id, nor a placeholder as one', () => {
    const states = clickIdStates(SLOW_THEN_TIMEOUT, ['awc']);
    expect(states).toEqual(['absent', 'present', 'present', 'unanswered']);
    expect(clickIdStates([hop('https://x.example/?awc=%7Bclickid%7D'), hop('https://x.example/?awc=')], ['awc'])).toEqual([
      'absent',
      'missing',
    ]);
    const input = { hops: SLOW_THEN_TIMEOUT, expected: ['awc'], issues: [] };
    expect(summarizeHops(input, states)).toContain('hop 3 got no response, so whether it reaches the landing page is unknown');
    expect(summarizeHops(input, states)).toContain('1: ' + new URL(WIDE_HOST).host + ' (302, 10.0 s)');
    const only = [hop('https://shop.example/?awc=1', { status: null, error: 'connection reset' })];
    expect(summarizeHops({ hops: only, expected: ['awc'], issues: [] }, clickIdStates(only, ['awc']))).toContain(
      'is on the URL of hop 0, which got no response',
    );
    const picture = renderHopPicture(input);
    expect(picture).toContain('? no response');
    expect(picture).toContain('10.0 s');
    expect(picture).not.toContain('10000 ms');
  });
});

describe.skipIf(!HAS_CHROMIUM)(`the hop picture in Chromium (${CHROMIUM})`, () => {
  let profile: string;
  let context: BrowserContext;

  beforeAll(async () => {
    profile = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-hop-picture-'));
    context = await launchVisitor(CHROMIUM, profile, {
      viewport: { width: 1366, height: 768 },
    });
  });
  afterAll(async () => {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  it.each([
    { width: 1366, shown: 'hops-wide' },
    { width: 801, shown: 'hops-wide' },
    { width: 800, shown: 'hops-narrow' },
    { width: 390, shown: 'hops-narrow' },
    { width: 320, shown: 'hops-narrow' },
  ])('at $width px: one drawing ($shown), no overlapping labels, nothing under 11 px', async ({ width, shown }) => {
    const page = await context.newPage();
    try {
      await page.setViewportSize({ width, height: 900 });
      for (const expected of [['awc'], []]) {
        await page.setContent(html(renderHopPicture({ hops: SLOW_THEN_TIMEOUT, expected, issues: [] })));
        const audit = await auditHopPicture(page);
        expect(audit.shown).toEqual([shown]);
        expect(audit.overlaps).toEqual([]);
        // 320 px is below the phone width the pages are made for; the text shrinks a little, never below 10 px.
        expect(audit.smallestTextPx).toBeGreaterThanOrEqual(width < 390 ? 10 : 11);
        const silent = audit.badges.find((texts) => texts[0] === '3') ?? [];
        expect(silent.some((text) => text?.startsWith('✓'))).toBe(false);
        if (expected.length > 0) expect(silent).toContain('? no response');
      }
      for (const hops of [LOST, NEVER]) {
        await page.setContent(html(renderHopPicture({ hops, expected: ['awc'], issues: [] })));
        const audit = await auditHopPicture(page);
        expect(audit.overlaps).toEqual([]);
        expect(audit.badges.flat()).toEqual(
          expect.arrayContaining(hops === LOST ? ['not yet', '✓ awc', '✗ lost here', 'still missing'] : ['not yet', '✗ never arrived']),
        );
      }
      expect((await page.evaluate('document.documentElement.scrollWidth')) as number).toBeLessThanOrEqual(width);
    } finally {
      await page.close();
    }
  });
});
