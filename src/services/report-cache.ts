// ReportCache: the serialized bodies of finished reports, kept per process. A finished report changes only its view
// count, so its body is kept split around that number: a cached read counts the view in the database and puts the
// new count between the two halves, without reading the row, parsing the stored result or serializing again.
// Measured by bench/load.ts ("GET /v1/reports/:slug"); the view counting itself is store/checks-repo.ts (addView).
import { createBodyCache, DEFAULT_BODY_CACHE_BYTES } from '../lib/body-cache.js';

export interface ReportCache {
  /** The body of a cached finished report with this view counted and merged in; undefined when not cached (nothing counted) or gone. */
  get(slug: string): Promise<string | undefined>;
  /** Keeps the body of a finished report that shows `viewCount` once; a body where the count is not found exactly once is not kept. */
  put(slug: string, body: string, viewCount: number): void;
  invalidate(slug: string): void;
}

export interface ReportCacheDeps {
  /** Counts one view of the report and returns its new view count; undefined when there is no such report. */
  countView(slug: string): Promise<number | undefined>;
  maxBytes?: number;
}

const KEY = '"viewCount":';

export function createReportCache(deps: ReportCacheDeps): ReportCache {
  const bodies = createBodyCache<{ head: string; tail: string }>(deps.maxBytes ?? DEFAULT_BODY_CACHE_BYTES);
  return {
    async get(slug) {
      const cached = bodies.get(slug);
      if (cached === undefined) return undefined;
      const views = await deps.countView(slug);
      if (views === undefined) {
        bodies.delete(slug);
        return undefined;
      }
      return `${cached.head}${views}${cached.tail}`;
    },
    put(slug, body, viewCount) {
      const marker = `${KEY}${viewCount}`;
      const at = body.indexOf(marker);
      if (at < 0 || body.indexOf(KEY, at + 1) >= 0) return;
      bodies.set(slug, { head: body.slice(0, at + KEY.length), tail: body.slice(at + marker.length) }, body.length);
    },
    invalidate(slug) {
      bodies.delete(slug);
    },
  };
}
