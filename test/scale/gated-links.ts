// A farm of tracking links whose first hop is held at a gate: the test decides when the trackers answer, so it
// can kill a worker while it provably holds leased, half-run checks. Counts what really reached each link.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendResponse, type AffiliateWeb } from '../fixtures/affiliate-web.js';
import { SIM_SUFFIX } from './cluster.js';

export interface GatedLinks {
  urls: string[];
  /** First-hop requests waiting at the gate right now. */
  held(): number;
  /** Held requests whose client hung up (a killed worker's connections). */
  hungUp(): number;
  /** Opens the gate: held requests (whose client is still there) and all later ones are answered. */
  open(): void;
  /** Per link: first-hop requests received (a killed worker's aborted request counts here). */
  trackerHits(i: number): number;
  /** Per link: redirects actually delivered to a live client. */
  answered(i: number): number;
  /** Per link: landing-page requests, i.e. chains that ran to the end. */
  landings(i: number): number;
}

/** `count` links over `hosts` tracker hosts: /go/<i> → (gate) → 302 → shop/p/<i>. */
export function addGatedLinks(web: AffiliateWeb, opts: { prefix: string; count: number; hosts: number }): GatedLinks {
  const trackerHost = (i: number) => `trk-${i % opts.hosts}.${opts.prefix}.${SIM_SUFFIX}`;
  const shopHost = `shop.${opts.prefix}.${SIM_SUFFIX}`;
  const trackerHits = new Array<number>(opts.count).fill(0);
  const answered = new Array<number>(opts.count).fill(0);
  const landings = new Array<number>(opts.count).fill(0);
  let isOpen = false;
  let held = 0;
  let hungUp = 0;
  const waiting = new Set<() => void>();

  web.route(shopHost, '*', (_req, res, ctx) => {
    const i = Number(/^\/p\/(\d+)$/.exec(ctx.url.pathname)?.[1] ?? Number.NaN);
    if (Number.isInteger(i) && i < opts.count) landings[i] = (landings[i] ?? 0) + 1;
    sendResponse(res, '<!doctype html><title>Product</title><p>In stock</p>', {
      contentType: 'text/html; charset=utf-8',
      setCookies: ['_shop_ref=1; Max-Age=2592000; Path=/'],
    });
  });

  const urls: string[] = [];
  for (let i = 0; i < opts.count; i++) {
    const handler = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      trackerHits[i] = (trackerHits[i] ?? 0) + 1;
      let clientGone = false;
      // Before we answer, a 'close' on the response means the client hung up (its worker was killed).
      res.once('close', () => {
        if (!answeredHere) {
          clientGone = true;
          hungUp++;
        }
      });
      let answeredHere = false;
      if (!isOpen) {
        held++;
        await new Promise<void>((resolve) => waiting.add(resolve));
        held--;
      }
      if (clientGone || req.socket.destroyed) return;
      answeredHere = true;
      answered[i] = (answered[i] ?? 0) + 1;
      sendResponse(res, '', { status: 302, headers: { location: web.url(shopHost, `/p/${i}`) } });
    };
    web.route(trackerHost(i), `/go/${i}`, handler);
    urls.push(web.url(trackerHost(i), `/go/${i}`));
  }

  return {
    urls,
    held: () => held,
    hungUp: () => hungUp,
    open() {
      isOpen = true;
      for (const release of waiting) release();
      waiting.clear();
    },
    trackerHits: (i) => trackerHits[i] ?? 0,
    answered: (i) => answered[i] ?? 0,
    landings: (i) => landings[i] ?? 0,
  };
}
