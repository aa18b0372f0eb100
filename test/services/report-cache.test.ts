// ReportCache (src/services/report-cache.ts): finished report bodies kept around their view count.
import { describe, expect, it } from 'vitest';
import { createReportCache } from '../../src/services/report-cache.js';

function counter(start: number) {
  const views = new Map<string, number>([['abc', start]]);
  const calls: string[] = [];
  return {
    calls,
    views,
    countView: async (slug: string) => {
      calls.push(slug);
      const next = views.get(slug);
      if (next === undefined) return undefined;
      views.set(slug, next + 1);
      return next + 1;
    },
  };
}

describe('ReportCache', () => {
  it('counts nothing for a report it does not hold', async () => {
    const views = counter(5);
    const cache = createReportCache(views);
    expect(await cache.get('abc')).toBeUndefined();
    expect(views.calls).toEqual([]);
  });

  it('counts each cached read and merges the new count into the body', async () => {
    const views = counter(5);
    const cache = createReportCache(views);
    cache.put('abc', '{"data":{"slug":"abc","viewCount":5,"url":"https://x.example/"}}', 5);
    expect(await cache.get('abc')).toBe('{"data":{"slug":"abc","viewCount":6,"url":"https://x.example/"}}');
    expect(await cache.get('abc')).toBe('{"data":{"slug":"abc","viewCount":7,"url":"https://x.example/"}}');
    expect(views.calls).toEqual(['abc', 'abc']);
  });

  it('keeps no body where the count is missing or ambiguous', async () => {
    const views = counter(5);
    const cache = createReportCache(views);
    cache.put('abc', '{"data":{"viewCount":4}}', 5);
    expect(await cache.get('abc')).toBeUndefined();
    cache.put('abc', '{"data":{"viewCount":5,"note":{"viewCount":5}}}', 5);
    expect(await cache.get('abc')).toBeUndefined();
    expect(views.calls).toEqual([]);
  });

  it('drops a body on invalidate and when its report is gone', async () => {
    const views = counter(5);
    const cache = createReportCache(views);
    cache.put('abc', '{"data":{"viewCount":5}}', 5);
    cache.invalidate('abc');
    expect(await cache.get('abc')).toBeUndefined();
    cache.put('abc', '{"data":{"viewCount":5}}', 5);
    views.views.delete('abc');
    expect(await cache.get('abc')).toBeUndefined();
    expect(await cache.get('abc')).toBeUndefined();
    expect(views.calls).toEqual(['abc']);
  });
});
