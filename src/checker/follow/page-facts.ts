// What a landing response says about itself: bot protection instead of the site, and schema.org
// product availability. Markers are specific to challenge/block pages, never to the protection
// vendor's ordinary page tags (which appear on every protected page).
import type { HtmlScan } from './html.js';

export type HeaderMap = Record<string, string | string[] | undefined>;

export function headerValue(headers: HeaderMap, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const CHALLENGE_BODY_MARKERS = [
  '_cf_chl_opt', // Cloudflare managed/JS challenge
  'cf-chl-',
  'captcha-delivery.com', // DataDome block/captcha page
  'px-captcha', // PerimeterX / HUMAN
  '_pxcaptcha',
  '_incapsula_resource', // Imperva / Incapsula
  'incapsula incident id',
  'errors.edgesuite.net', // Akamai "Access Denied … Reference #"
];
const CHALLENGE_TITLES =
  /just a moment|attention required|checking (your|if the site connection is secure)|access denied|access to this page has been denied|pardon our interruption|are you a (robot|human)|verify(ing)? you are (a )?human|security check|one more step|ddos-guard|sucuri website firewall|request unsuccessful|robot check|captcha/i;
const CAPTCHA_WIDGETS = [
  'hcaptcha.com/1/api.js',
  'class="h-captcha"',
  'google.com/recaptcha',
  'recaptcha/api.js',
  'class="g-recaptcha"',
  'challenges.cloudflare.com/turnstile',
];
// A page that is little more than a captcha widget is a challenge even with a bland title.
const SMALL_PAGE = 8_000;

/** Bot protection answered instead of the site: "could not verify", never "broken". */
export function detectBotWall(status: number, headers: HeaderMap, html: string | null, title: string | null): boolean {
  if (status === 429 || status === 403) return true;
  if ((headerValue(headers, 'cf-mitigated') ?? '').toLowerCase() === 'challenge') return true;
  if (/^(captcha|challenge)$/i.test(headerValue(headers, 'x-amzn-waf-action') ?? '')) return true;
  if (headerValue(headers, 'x-vercel-mitigated') !== undefined) return true;
  if (html === null) return false;
  const lower = html.toLowerCase();
  if (CHALLENGE_BODY_MARKERS.some((m) => lower.includes(m))) return true;
  const challengeTitle = title !== null && CHALLENGE_TITLES.test(title);
  // "Access Denied" alone is too generic (a shop may use it); Akamai's block page adds "Reference #".
  const genericDenied = title !== null && /^access denied$/i.test(title.trim()) && !lower.includes('reference #');
  if (challengeTitle && !genericDenied) return true;
  const widget = CAPTCHA_WIDGETS.some((w) => lower.includes(w));
  return widget && (challengeTitle || html.length < SMALL_PAGE);
}

const OUT_OF_STOCK = new Set(['outofstock', 'soldout', 'discontinued', 'reserved']);
const IN_STOCK = new Set([
  'instock',
  'limitedavailability',
  'preorder',
  'presale',
  'onlineonly',
  'instoreonly',
  'backorder',
  'madetoorder',
]);

function classifyAvailability(value: string): 'in_stock' | 'out_of_stock' | null {
  const last = value.trim().split(/[/:#]/).pop() ?? '';
  const token = last.toLowerCase().replace(/[\s_-]+/g, '');
  if (IN_STOCK.has(token)) return 'in_stock';
  if (OUT_OF_STOCK.has(token)) return 'out_of_stock';
  return null;
}

const AVAILABILITY_KEY = /^(?:(?:https?:\/\/)?schema\.org\/|schema:)?availability$/i;

function collectJsonAvailability(node: unknown, out: string[], depth: number): void {
  if (depth > 40 || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) collectJsonAvailability(item, out, depth + 1);
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    if (AVAILABILITY_KEY.test(key)) {
      for (const v of Array.isArray(value) ? value : [value]) {
        if (typeof v === 'string') out.push(v);
        else if (v !== null && typeof v === 'object') {
          const id = (v as Record<string, unknown>)['@id'] ?? (v as Record<string, unknown>)['@value'];
          if (typeof id === 'string') out.push(id);
        }
      }
    } else {
      collectJsonAvailability(value, out, depth + 1);
    }
  }
}

function parseJsonLd(block: string): unknown {
  const cleaned = block
    .trim()
    .replace(/^<!--|-->$/g, '')
    .replace(/^\s*\/\*\s*<!\[CDATA\[\s*\*\/|\/\*\s*\]\]>\s*\*\/\s*$/g, '')
    .trim()
    .replace(/;$/, '');
  return JSON.parse(cleaned);
}

/** schema.org availability declared by the page: any offer in stock wins, else any out of stock. */
export function readAvailability(scan: HtmlScan): 'in_stock' | 'out_of_stock' | null {
  const values: string[] = [...scan.microdataAvailability];
  for (const block of scan.jsonLd) {
    try {
      collectJsonAvailability(parseJsonLd(block), values, 0);
    } catch {
      // Broken JSON-LD is common; pick the values out of the text instead.
      const re = /availability"\s*:\s*(?:\{\s*"@id"\s*:\s*)?"([^"]{1,200})"/gi;
      for (let m = re.exec(block); m !== null; m = re.exec(block)) values.push(m[1] ?? '');
    }
  }
  const classes = values.map(classifyAvailability);
  if (classes.includes('in_stock')) return 'in_stock';
  if (classes.includes('out_of_stock')) return 'out_of_stock';
  return null;
}
