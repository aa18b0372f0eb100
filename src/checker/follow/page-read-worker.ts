// The worker-thread side of page-reader.ts: one page read per task (piscina calls the default export).
import type { HeaderMap } from './page-facts.js';
import { readPage, type PageRead } from './page-read.js';

export interface PageReadTask {
  status: number;
  headers: HeaderMap;
  html: string;
  readScripts: boolean;
}

export default function readPageTask(task: PageReadTask): PageRead {
  return readPage(task.status, task.headers, task.html, task.readScripts);
}
