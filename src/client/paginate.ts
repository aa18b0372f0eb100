// Cursor pagination as an async iterator: one page is fetched at a time, only when the loop needs it.
import type { Page } from './types.js';

export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.data;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}
