// A browser-like client over real HTTP (fetch): a cookie jar, Accept: text/html, no automatic redirects, and form
// posts with the fetch metadata a browser sends. Nothing here imports the service's code.
export const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

export interface PageResponse {
  status: number;
  headers: Headers;
  body: string;
}

export function csrfTokenOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error(`no CSRF token in the page:\n${html.slice(0, 400)}`);
  return match[1];
}

export class HttpBrowser {
  readonly jar = new Map<string, string>();

  constructor(private readonly base: string) {}

  private remember(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((p) => p.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value === '' || attributes.some((a) => /^max-age=0$/i.test(a))) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  private cookieHeader(): Record<string, string> {
    return this.jar.size === 0 ? {} : { cookie: [...this.jar].map(([n, v]) => `${n}=${v}`).join('; ') };
  }

  private async fetch(url: string, init: RequestInit & { headers: Record<string, string> }): Promise<PageResponse> {
    const target = new URL(url, this.base).href;
    const res = await fetch(target, {
      ...init,
      redirect: 'manual',
      headers: { accept: HTML_ACCEPT, ...this.cookieHeader(), ...init.headers },
    });
    this.remember(res);
    return { status: res.status, headers: res.headers, body: await res.text() };
  }

  get(url: string): Promise<PageResponse> {
    return this.fetch(url, { method: 'GET', headers: {} });
  }

  /** Posts a form the way Chromium does: same-origin fetch metadata and Origin. */
  post(url: string, fields: Record<string, string>): Promise<PageResponse> {
    return this.fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: new URL(this.base).origin,
        'sec-fetch-site': 'same-origin',
        'sec-fetch-mode': 'navigate',
      },
      body: new URLSearchParams(fields).toString(),
    });
  }
}
