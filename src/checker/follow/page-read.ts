// Everything the engine reads from one HTML response, as one pure function of (status, headers, HTML): the
// title, <base>, the refresh <meta>, schema.org availability, bot-protection markers and the inline scripts'
// navigations. Pages are attacker-controlled, so this is what runs off the main thread, on a time budget
// (page-reader.ts); every step is linear in the page's size.
import { scanHtml } from './html.js';
import { detectBotWall, headerValue, readAvailability, type HeaderMap } from './page-facts.js';
import { findScriptRedirects, type ScriptRedirects } from './script-redirect.js';
import type { PageFacts } from '../types.js';

export interface PageRead {
  title: string | null;
  baseHref: string | null;
  /** The content attribute of the first `<meta http-equiv="refresh">`. */
  metaRefresh: string | null;
  availability: PageFacts['availability'];
  botWall: boolean;
  scripts: ScriptRedirects;
  /** The page could not be read within its budget: nothing above is known, and a browser must look. */
  unreadable: boolean;
}

/** `readScripts: false` leaves the inline scripts unread (a rendered page: the browser already ran them). */
export function readPage(status: number, headers: HeaderMap, html: string | null, readScripts = true): PageRead {
  const scan = html === null ? null : scanHtml(html);
  const title = scan?.title ?? null;
  return {
    title,
    baseHref: scan?.baseHref ?? null,
    metaRefresh: scan?.metaRefresh ?? null,
    availability: scan === null ? null : readAvailability(scan),
    botWall: detectBotWall(status, headers, html, title),
    scripts: scan === null || !readScripts ? { literals: [], nonLiteral: false } : findScriptRedirects(scan.inlineScripts),
    unreadable: false,
  };
}

/** What is known of a page that could not be read in time: only what its status and headers say. */
export function unreadablePage(status: number, headers: HeaderMap): PageRead {
  return {
    title: null,
    baseHref: null,
    metaRefresh: null,
    availability: null,
    botWall: detectBotWall(status, headers, null, null),
    scripts: { literals: [], nonLiteral: true },
    unreadable: true,
  };
}

export function pageFactsOf(read: PageRead, headers: HeaderMap, scriptNavigation: boolean): PageFacts {
  return {
    contentType: headerValue(headers, 'content-type') ?? null,
    title: read.title,
    botWall: read.botWall,
    availability: read.availability,
    scriptNavigation,
  };
}
