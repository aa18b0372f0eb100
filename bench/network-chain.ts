// The benchmarks' typical network chain on the test "affiliate web": tracker → network → aggregator → merchant
// click handler → product page (about 8 KB), so timings and stored results have a realistic size.
import type { AffiliateWeb } from '../test/fixtures/affiliate-web.js';

const HOPS = [
  { host: 'www.awin1.com', path: '/cread.php?awinmid=1001&awinaffid=2002&clickref=bench' },
  { host: 'track.network.example', path: '/c?id=1' },
  { host: 'go.aggregator.example', path: '/r?u=1' },
  {
    host: 'click.shop.example',
    path: '/t?awc=1001_abc',
    setCookies: ['_aw_m_1001=1001_abc; Max-Age=2592000; Path=/; Domain=shop.example'],
  },
  { host: 'www.shop.example', path: '/p/trail-shoe?awc=1001_abc' },
];

/** Adds the chain to `web` and returns its first URL and the hosts it passes. */
export function addNetworkChain(web: AffiliateWeb): { start: string; hosts: string[] } {
  const product = `<!doctype html><html><head><title>Trail running shoe</title></head><body>${'<p>Product copy. </p>'.repeat(400)}</body></html>`;
  return { start: web.chain(HOPS, { html: product }), hosts: HOPS.map((hop) => hop.host) };
}
