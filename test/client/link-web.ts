// Tracking links on the affiliate-web simulator for the client and CLI tests (and the docs' real output):
// an Awin link that tracks, one whose click id the shop strips on a redirect, and one that lands on a 404.
// All https, with the simulator's test CA (pass `caCert` to the engine, or NODE_EXTRA_CA_CERTS to a process).
import tls from 'node:tls';
import { startAffiliateWeb, type AffiliateWeb } from '../fixtures/affiliate-web.js';

export interface LinkWeb {
  web: AffiliateWeb;
  caCert: string;
  /** An Awin link that tracks; `n` makes each one distinct. */
  good(n?: number): string;
  /** An Awin link whose shop drops the awc click id on a redirect and sets no cookie in its place. */
  stripped: string;
  /** A short link to a page that is gone (404). */
  broken: string;
  resolveSpec: string;
  close(): Promise<void>;
}

const SHOP = 'www.shoes.example';
const GONE = 'gone.shoes.example';

/** Issues each host's certificate before the first check, so certificate generation never counts as a slow hop. */
async function warm(web: AffiliateWeb, hosts: string[]): Promise<void> {
  await Promise.all(
    hosts.map(
      (servername) =>
        new Promise<void>((resolve, reject) => {
          const socket = tls.connect({ host: '127.0.0.1', port: web.httpsPort, servername, ca: web.caCert }, () => {
            socket.end();
            resolve();
          });
          socket.once('error', reject);
        }),
    ),
  );
}

export async function startLinkWeb(): Promise<LinkWeb> {
  const web = await startAffiliateWeb();
  const url = (host: string, path: string) => web.url(host, path, true);
  web.redirect(
    'www.awin1.com',
    '/cread.php',
    (ctx) => {
      const target = new URL(ctx.query.get('ued') ?? url(SHOP, '/p/trainers'));
      target.searchParams.set('awc', `${ctx.query.get('awinmid') ?? '0'}_1700000000_abc123`);
      return target.href;
    },
    { setCookies: ['aw1234=1700000000_abc123; Max-Age=2592000; Path=/; Secure; SameSite=None'] },
  );
  web.page(SHOP, '*', {
    html: '<!doctype html><title>Running trainers</title><h1>Trainers</h1>',
    setCookies: ['_aw_m_1234=abc123; Max-Age=2592000; Path=/; Secure'],
  });
  web.redirect(SHOP, '/sale', url(SHOP, '/p/sale'));
  web.page(SHOP, '/p/sale', '<!doctype html><title>Sale</title><h1>Sale</h1>');
  web.redirect('go.shoes.example', '/old-offer', url(GONE, '/p/discontinued'));
  web.page(GONE, '/p/discontinued', { html: '<!doctype html><title>Not found</title>', status: 404 });
  const awin = (ued: string) => `${url('www.awin1.com', '/cread.php')}?awinmid=1234&awinaffid=5678&ued=${encodeURIComponent(ued)}`;
  await warm(web, ['www.awin1.com', SHOP, GONE, 'go.shoes.example']);
  return {
    web,
    caCert: web.caCert,
    good: (n = 0) => awin(url(SHOP, `/p/trainers-${n}`)),
    stripped: awin(url(SHOP, '/sale')),
    broken: url('go.shoes.example', '/old-offer'),
    get resolveSpec() {
      return web.resolveSpec;
    },
    close: () => web.close(),
  };
}
