// Making a consent choice the way a shopper does: a real click on the banner's own "accept all" or
// "reject all" control — the platform's known controls first (in any frame: Sourcepoint uses an iframe),
// then a control labelled with the choice's words in the common languages.
import { randomBytes } from 'node:crypto';
import type { Frame, Locator, Page } from 'playwright-core';
import { phrasesFor } from './button-texts.js';
import { runPageScript } from '../browser/page-script.js';
import type { ChoicePath, ConsentPlatformDefinition } from './types.js';

export type ConsentChoice = 'accept' | 'reject';

export interface ChoiceResult {
  clicked: boolean;
  /** Who answered: an autoconsent rule, our catalogue's controls, or a control found by its words. */
  via: 'autoconsent' | 'platform' | 'text' | null;
}

const POLL_MS = 150;
export const STEP_TIMEOUT_MS = 3_000;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function visibleIn(frames: readonly Frame[], selector: string): Promise<Locator | null> {
  for (const frame of frames) {
    const locator = frame.locator(selector).first();
    if (await locator.isVisible().catch(() => false)) return locator;
  }
  return null;
}

/** Clicks every step of a path; later steps (a second layer) get a few seconds to appear. */
async function clickPath(page: Page, first: Locator, path: ChoicePath): Promise<boolean> {
  try {
    await first.click({ timeout: STEP_TIMEOUT_MS });
    for (const selector of path.slice(1)) {
      const until = Date.now() + STEP_TIMEOUT_MS;
      let next: Locator | null = null;
      while (next === null && Date.now() < until) {
        next = await visibleIn(page.frames(), selector);
        if (next === null) await sleep(POLL_MS);
      }
      if (next === null) return false;
      await next.click({ timeout: STEP_TIMEOUT_MS });
    }
    return true;
  } catch {
    return false;
  }
}

/** Marks the frame's control labelled with one of `phrases` (page-scripts/mark-choice.ts); a frame gone or busy has none. */
async function markByText(frame: Frame, phrases: readonly string[], mark: string): Promise<boolean> {
  const marked = await runPageScript(frame, 'mark-choice', { phrases, mark });
  return marked.kind === 'done' && marked.value;
}

async function clickByText(page: Page, choice: ConsentChoice): Promise<boolean> {
  const mark = randomBytes(6).toString('hex');
  const phrases = phrasesFor(choice);
  for (const frame of page.frames()) {
    if (!(await markByText(frame, phrases, mark))) continue;
    try {
      await frame.locator(`[data-trackcheck-choice="${mark}"]`).first().click({ timeout: STEP_TIMEOUT_MS });
      return true;
    } catch {
      return false;
    }
  }
  return false;
}

/** Whether the choice's control is visible now (nothing is clicked). */
export async function choiceAvailable(page: Page, platform: ConsentPlatformDefinition | null, choice: ConsentChoice): Promise<boolean> {
  for (const path of platform?.[choice] ?? []) {
    if (path[0] !== undefined && (await visibleIn(page.frames(), path[0])) !== null) return true;
  }
  const mark = randomBytes(6).toString('hex');
  for (const frame of page.frames()) {
    if (await markByText(frame, phrasesFor(choice), mark)) return true;
  }
  return false;
}

/** The catalogue's first-layer controls for the choice: its one-click paths (no second layer to open). */
function firstLayerPaths(platform: ConsentPlatformDefinition | null, choice: ConsentChoice): ChoicePath[] {
  return (platform?.[choice] ?? []).filter((path) => path.length === 1);
}

/** One of the catalogue's first-layer controls for the choice, visible now in any frame; null when none is. */
export async function firstLayerControl(
  page: Page,
  platform: ConsentPlatformDefinition | null,
  choice: ConsentChoice,
): Promise<Locator | null> {
  for (const [selector] of firstLayerPaths(platform, choice)) {
    const control = selector === undefined ? null : await visibleIn(page.frames(), selector);
    if (control !== null) return control;
  }
  return null;
}

/** Waits up to `timeoutMs` for the choice's control and clicks it. */
export async function makeChoice(
  page: Page,
  platform: ConsentPlatformDefinition | null,
  choice: ConsentChoice,
  timeoutMs: number,
): Promise<ChoiceResult> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    for (const path of platform?.[choice] ?? []) {
      const first = path[0] === undefined ? null : await visibleIn(page.frames(), path[0]);
      if (first !== null && (await clickPath(page, first, path))) return { clicked: true, via: 'platform' };
    }
    if (await clickByText(page, choice)) return { clicked: true, via: 'text' };
    if (Date.now() >= until) return { clicked: false, via: null };
    await sleep(POLL_MS);
  }
}
