// Reads pages off the main thread: a small pool of worker threads (piscina) runs page-read.ts, each page on a
// time budget. A page that takes longer is abandoned — its thread is terminated and replaced — and comes back
// `unreadable`, so the chain is handed to the browser instead of holding the process. The API's event loop
// never parses a page. The worker runs the built file (dist/checker/follow/page-read-worker.js), also under the test
// runner, like the page scripts.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Piscina } from 'piscina';
import { packageRoot } from '../../lib/package-root.js';
import { createSemaphore, type Semaphore } from '../browser/semaphore.js';
import type { HeaderMap } from './page-facts.js';
import { readPage, unreadablePage, type PageRead } from './page-read.js';
import type { PageReadTask } from './page-read-worker.js';

/** CPU time one page may take to read; far above any real page (a 1 MB page reads in about 0.2 s). */
export const PAGE_READ_BUDGET_MS = 2_000;

let pool: { threads: Piscina<PageReadTask, PageRead>; slots: Semaphore } | null = null;

function workerFile(): string {
  const file = path.join(packageRoot(), 'dist', 'checker', 'follow', 'page-read-worker.js');
  if (!existsSync(file)) throw new Error(`trackcheck: the page reader is not built (${file}); run \`npm run build\``);
  return file;
}

function getPool(): NonNullable<typeof pool> {
  if (pool !== null) return pool;
  const threads = Math.max(1, Math.min(2, os.availableParallelism()));
  pool = {
    threads: new Piscina<PageReadTask, PageRead>({ filename: workerFile(), minThreads: 1, maxThreads: threads, idleTimeout: 60_000 }),
    // Pages wait here, not in piscina's queue: the budget starts when a thread starts on the page.
    slots: createSemaphore(threads),
  };
  return pool;
}

export async function readPageOffThread(
  status: number,
  headers: HeaderMap,
  html: string | null,
  budgetMs = PAGE_READ_BUDGET_MS,
  readScripts = true,
): Promise<PageRead> {
  if (html === null) return readPage(status, headers, null); // headers only: nothing to parse
  const { threads, slots } = getPool();
  const release = await slots.acquire();
  try {
    return await threads.run({ status, headers: { ...headers }, html, readScripts } satisfies PageReadTask, {
      signal: AbortSignal.timeout(budgetMs),
    });
  } catch (err) {
    if (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError')) return unreadablePage(status, headers);
    throw err;
  } finally {
    release();
  }
}

/** Ends the worker threads (process shutdown, the end of a CLI check). */
export async function closePageReaders(): Promise<void> {
  const current = pool;
  pool = null;
  await current?.threads.destroy();
}
