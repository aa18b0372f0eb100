// Records the main frame's navigations as they happen: every document request (redirects included, via
// Playwright's request events), its response and timing, and why each new navigation started (Chrome's
// own reason, from CDP Page.frameRequestedNavigation: a meta refresh, a script, a form…).
import { performance } from 'node:perf_hooks';
import type { CDPSession, Page, Request, Response } from 'playwright-core';

export interface NavRecord {
  request: Request;
  url: string;
  /** Reached by a 3xx of the previous record. */
  redirect: boolean;
  startedAt: number;
  respondedAt: number | null;
  finishedAt: number | null;
  response: Response | null;
  failure: string | null;
}

interface RequestedNavigation {
  url: string;
  reason: string;
  at: number;
  /** A document request for it has started. */
  matched: boolean;
  /** Its reason was handed out for a hop kind. */
  used: boolean;
}

// A requested navigation that has not produced a request after this long was cancelled (beforeunload,
// a download, a javascript: URL…).
const REQUEST_GRACE_MS = 1000;

const withoutFragment = (url: string): string => url.split('#')[0] ?? url;

interface ScheduledNavigation {
  dueAt: number;
}

export class NavRecorder {
  readonly navs: NavRecord[] = [];
  private readonly requested: RequestedNavigation[] = [];
  private scheduled: ScheduledNavigation | null = null;
  private wake: (() => void) | null = null;
  private frozen = false;
  /** Index of the record whose document is committed in the main frame (-1: none yet). */
  committedIndex = -1;
  /** The committed document fired `load`. */
  loaded = false;
  /** The page is gone (closed, its renderer crashed, or the browser died): nothing more will happen. */
  gone: string | null = null;
  loadedAt = 0;

  constructor(private readonly page: Page) {}

  /** Starts listening. The CDP session gives Chrome's reason for each navigation a page starts itself. */
  async attach(cdp: CDPSession): Promise<void> {
    const page = this.page;
    const main = page.mainFrame();
    page.on('request', (request) => {
      if (this.frozen || !request.isNavigationRequest() || request.frame() !== main) return;
      if (!/^https?:/i.test(request.url())) return;
      this.scheduled = null;
      const redirect = request.redirectedFrom() !== null;
      const announced = this.requested.find((r) => !r.matched && withoutFragment(r.url) === withoutFragment(request.url()));
      if (announced !== undefined) announced.matched = true;
      this.navs.push({
        request,
        url: request.url(),
        redirect,
        startedAt: performance.now(),
        respondedAt: null,
        finishedAt: null,
        response: null,
        failure: null,
      });
      this.signal();
    });
    page.on('response', (response) => {
      const record = this.find(response.request());
      if (record === undefined) return;
      record.response = response;
      record.respondedAt = performance.now();
      this.signal();
    });
    page.on('requestfinished', (request) => {
      const record = this.find(request);
      if (record === undefined) return;
      record.finishedAt = performance.now();
      this.signal();
    });
    page.on('requestfailed', (request) => {
      const record = this.find(request);
      if (record === undefined) return;
      record.failure = request.failure()?.errorText ?? 'failed';
      record.finishedAt = performance.now();
      this.signal();
    });
    page.on('close', () => {
      this.gone ??= 'the page was closed (the browser ended)';
      this.signal();
    });
    page.on('crash', () => {
      this.gone ??= 'the page crashed';
      this.signal();
    });
    page.on('framenavigated', (frame) => {
      if (frame !== main || this.frozen) return;
      // Same-document navigations (pushState, fragments) also land here; only a new response is a new document.
      const newest = this.navs.length - 1;
      if (newest <= this.committedIndex || this.navs[newest]?.response === null) return;
      this.committedIndex = newest;
      this.signal();
    });
    let mainFrameId: string | null = null;
    cdp.on('Page.frameRequestedNavigation', (event: { frameId: string; reason: string; url: string }) => {
      if (event.frameId !== mainFrameId || this.frozen) return;
      this.requested.push({ url: event.url, reason: event.reason, at: performance.now(), matched: false, used: false });
      this.signal();
    });
    // Deprecated in CDP but still sent: the one place a delayed refresh announces itself ahead of time.
    cdp.on('Page.frameScheduledNavigation', (event: { frameId: string; delay: number }) => {
      if (event.frameId !== mainFrameId || this.frozen || event.delay > 10) return;
      this.scheduled = { dueAt: performance.now() + event.delay * 1000 };
      this.signal();
    });
    // Both before the first navigation, in one round trip.
    const [tree] = await Promise.all([
      cdp.send('Page.getFrameTree') as Promise<{ frameTree: { frame: { id: string } } }>,
      cdp.send('Page.enable'),
    ]);
    mainFrameId = tree.frameTree.frame.id;
  }

  /** Stops recording: later navigations (after the end was decided) are not part of the chain. */
  freeze(): void {
    this.frozen = true;
    this.signal();
  }

  /** A navigation Chrome announced (requested, or scheduled and due within 10 s) that has no request yet. */
  pendingNavigation(now: number): { dueAt: number } | null {
    const waiting = this.requested.find((r) => !r.matched && now - r.at < REQUEST_GRACE_MS);
    if (waiting !== undefined) return { dueAt: waiting.at + REQUEST_GRACE_MS };
    return this.scheduled;
  }

  clearScheduled(): void {
    this.scheduled = null;
  }

  /** Chrome's reason for the navigation to `url` (first unused match), for hop kinds. */
  takeReason(url: string): string | null {
    const match = this.requested.find((r) => !r.used && withoutFragment(r.url) === withoutFragment(url));
    if (match === undefined) return null;
    match.used = true;
    return match.reason;
  }

  /** Resolves on the next recorded event, or after `ms`. */
  waitForChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          this.wake = null;
          resolve();
        },
        Math.max(0, ms),
      );
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }

  private find(request: Request): NavRecord | undefined {
    if (this.frozen) return undefined;
    return this.navs.find((record) => record.request === request);
  }

  private signal(): void {
    this.wake?.();
  }
}
