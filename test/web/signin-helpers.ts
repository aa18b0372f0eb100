// A browser-like client over app.inject(): a cookie jar, Accept: text/html, and reading the forms' CSRF tokens.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { loadWebKeys } from '../../src/auth/web-keys.js';
import { issueLoginLink } from '../../src/auth/login-link.js';

export const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

export interface SetCookie {
  name: string;
  value: string;
  attributes: string[];
}

export function setCookiesOf(res: LightMyRequestResponse): SetCookie[] {
  const raw = res.headers['set-cookie'];
  const lines = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return lines.map((line) => {
    const [pair = '', ...attributes] = line.split(';').map((p) => p.trim());
    const eq = pair.indexOf('=');
    return { name: pair.slice(0, eq), value: pair.slice(eq + 1), attributes };
  });
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error(`no CSRF token in the page:\n${html.slice(0, 400)}`);
  return match[1];
}

export class Browser {
  readonly jar = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    /** Extra headers on every request, e.g. X-Forwarded-Proto. */
    private readonly headers: Record<string, string> = {},
  ) {}

  private cookieHeader(): Record<string, string> {
    if (this.jar.size === 0) return {};
    return { cookie: [...this.jar].map(([n, v]) => `${n}=${v}`).join('; ') };
  }

  private remember(res: LightMyRequestResponse): LightMyRequestResponse {
    for (const c of setCookiesOf(res)) {
      if (c.attributes.some((a) => /^max-age=0$/i.test(a)) || c.value === '') this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    }
    return res;
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.remember(
      await this.app.inject({ method: 'GET', url, headers: { accept: HTML_ACCEPT, ...this.headers, ...this.cookieHeader(), ...headers } }),
    );
  }

  /** Posts a form the way Chromium does: same-origin fetch metadata and Origin. */
  async post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.remember(
      await this.app.inject({
        method: 'POST',
        url,
        headers: {
          accept: HTML_ACCEPT,
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'http://localhost',
          'sec-fetch-site': 'same-origin',
          ...this.headers,
          ...this.cookieHeader(),
          ...headers,
        },
        payload: new URLSearchParams(fields).toString(),
      }),
    );
  }

  /** GETs the page with the form, then posts it with the page's CSRF token. */
  async submit(pageUrl: string, action: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
    const page = await this.get(pageUrl);
    expect(page.statusCode, page.body.slice(0, 300)).toBe(200);
    return this.post(action, { _csrf: csrfOf(page.body), ...fields });
  }
}

export async function loginLinkFor(dataDir: string, userId: string, opts: { ttlSeconds?: number; nowMs?: number } = {}): Promise<string> {
  const keys = await loadWebKeys({ sessionSecret: null, dataDir });
  const link = await issueLoginLink({ key: keys.loginLink, userId, publicUrl: 'http://tc.test', ...opts });
  return link.url.slice('http://tc.test'.length);
}

/** Signs the browser in through a one-time link (confirmation page, then the post). */
export async function signInWithLink(browser: Browser, dataDir: string, userId: string, nowMs?: number): Promise<void> {
  const path = await loginLinkFor(dataDir, userId, { nowMs });
  const res = await browser.submit(path, '/auth/login', { token: new URL(path, 'http://x').searchParams.get('token') ?? '' });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
  expect(res.headers.location).toBe('/checks');
}
