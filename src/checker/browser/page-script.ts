// Runs the built page scripts (page-scripts/, bundled by scripts/build.mjs into dist/page-scripts/) in a
// page or frame. Each is one self-contained expression whose value is the script's function; the call is
// that expression applied to the argument as JSON. Under the test runner the same built files are used, so
// what the tests run in Chromium is exactly what ships.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import type { PageScriptName, PageScripts } from './page-script-types.js';
import { packageRoot } from '../../lib/package-root.js';

/** The directory holding package.json above this file (src/… under the test runner, dist/… when built). */
let builtDir: string | null = null;
const sources = new Map<PageScriptName, string>();

export function pageScriptSource(name: PageScriptName): string {
  const cached = sources.get(name);
  if (cached !== undefined) return cached;
  builtDir ??= path.join(packageRoot(), 'dist', 'page-scripts');
  const file = path.join(builtDir, `${name}.js`);
  if (!existsSync(file)) throw new Error(`trackcheck: page script "${name}" is not built (${file}); run \`npm run build\``);
  const source = readFileSync(file, 'utf8').trim();
  sources.set(name, source);
  return source;
}

/** The script applied to `arg`: a string Playwright evaluates as an expression (or installs as an init script). */
export function pageScriptCall<N extends PageScriptName>(name: N, arg: PageScripts[N]['arg']): string {
  return `(${pageScriptSource(name)})(${JSON.stringify(arg)})`;
}

/** What a page-script call came to: its value, the page gone from under it, or no answer in time. */
export type PageScriptOutcome<R> = { kind: 'done'; value: R } | { kind: 'gone' } | { kind: 'timeout' };

/** Longest a page script may take unless the caller says otherwise: a page that hangs must not hold a check. */
export const PAGE_SCRIPT_TIMEOUT_MS = 5_000;

/**
 * Runs a page script, waiting at most `timeoutMs`. A page that navigated away or closed is `gone`; an error
 * thrown by the script itself is a defect and is thrown (never read as "nothing found").
 */
export async function runPageScript<N extends PageScriptName>(
  target: Page | Frame,
  name: N,
  arg: PageScripts[N]['arg'],
  timeoutMs: number = PAGE_SCRIPT_TIMEOUT_MS,
): Promise<PageScriptOutcome<PageScripts[N]['result']>> {
  return (await evaluateWithTimeout(target, pageScriptCall(name, arg), timeoutMs)) as PageScriptOutcome<PageScripts[N]['result']>;
}

/**
 * Evaluates a prepared expression (a built page script, or a third-party bundle such as autoconsent's,
 * loaded as text) with the same time limit and the same reading of a page that went away.
 */
export async function evaluateWithTimeout(
  target: Page | Frame,
  expression: string,
  timeoutMs: number = PAGE_SCRIPT_TIMEOUT_MS,
): Promise<PageScriptOutcome<unknown>> {
  let timer: NodeJS.Timeout | undefined;
  // Settled either way, so a failure arriving after the timeout won is never an unhandled rejection.
  const call = target.evaluate(expression).then(
    (value) => ({ kind: 'done', value }) as const,
    (err: unknown) => (isPageGoneError(err) ? ({ kind: 'gone' } as const) : { kind: 'error' as const, err }),
  );
  const timeout = new Promise<{ kind: 'timeout' }>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timeout' }), Math.max(0, timeoutMs));
  });
  try {
    const outcome = await Promise.race([call, timeout]);
    if (outcome.kind === 'error') throw outcome.err;
    return outcome;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The page (or frame) went away under the script: it navigated, was detached or closed. That is "nothing
 * to read here"; any other error (a script that throws) is a defect and must surface, not read as "nothing found".
 */
export function isPageGoneError(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /Execution context was destroyed|Cannot find context with specified id|Frame was detached|frame got detached|has been closed|Target closed|Navigating frame was detached|navigation/i.test(
    message,
  );
}
