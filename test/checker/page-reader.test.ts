// Pages are read off the main thread, on a budget (issue 13, point 1): a 479 KB page of 14,000 script handlers
// took 21 s of the API's event loop. Now the reader is linear and runs in worker threads: the main thread stays
// free while a hostile page is read, a page over its budget comes back unreadable (for the browser), and the
// pool serves the next page as usual.
import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { readPage } from '../../src/checker/follow/page-read.js';
import { closePageReaders, readPageOffThread } from '../../src/checker/follow/page-reader.js';

const handlers = (n: number) =>
  `<!doctype html><title>Deals</title><script>${Array.from({ length: n }, (_, i) => `function f${i}(){location.href='/p${i}'}`).join('\n')}</script>`;
const HTML = { 'content-type': 'text/html' };

describe('reading pages', () => {
  afterAll(closePageReaders);

  it('reads a 1.1 MB page of 28,000 script handlers in linear time (the quadratic reader needed minutes)', () => {
    const started = performance.now();
    const read = readPage(200, HTML, handlers(28_000));
    expect(performance.now() - started).toBeLessThan(3_000);
    // Past the candidate budget the page is left to the browser rather than guessed at.
    expect(read.scripts).toEqual({ literals: [], nonLiteral: true });
    expect(read.title).toBe('Deals');
  });

  it('keeps the main thread free while a hostile page is read in a worker thread', async () => {
    const page = handlers(28_000);
    await readPageOffThread(200, HTML, '<title>warm</title>'); // the pool's first thread starts
    const started = performance.now();
    readPage(200, HTML, page); // what the same read costs on the main thread
    const mainMs = performance.now() - started;
    // Event-loop utilization counts the main thread's active time only (not its waiting, nor other threads).
    const before = performance.eventLoopUtilization();
    const read = await readPageOffThread(200, HTML, page);
    const offMs = performance.eventLoopUtilization(before).active;
    expect(read.title).toBe('Deals');
    expect(offMs, `the same read costs ${mainMs.toFixed(0)} ms on the main thread`).toBeLessThan(mainMs / 4);
  });

  it('gives up on a page past its budget (unreadable: the browser must look), then reads the next page as usual', async () => {
    const over = await readPageOffThread(200, HTML, handlers(28_000), 1);
    expect(over).toMatchObject({ unreadable: true, title: null, scripts: { literals: [], nonLiteral: true } });
    const next = await readPageOffThread(200, HTML, `<title>Next</title><script>location.href = '/landing';</script>`);
    expect(next).toMatchObject({ unreadable: false, title: 'Next', scripts: { literals: ['/landing'], nonLiteral: false } });
  });

  it('keeps what the status and headers say of an unreadable page (bot protection)', async () => {
    const over = await readPageOffThread(403, HTML, handlers(28_000), 1);
    expect(over).toMatchObject({ unreadable: true, botWall: true });
  });
});
