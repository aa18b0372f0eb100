// A real trackcheck app listening on 127.0.0.1 (fake clock, real database) and a tiny fault proxy in front of it.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp, type TestAppOptions } from '../helpers/test-app.js';

export interface ListeningApp extends TestApp {
  url: string;
}

export async function startListeningApp(opts: TestAppOptions = {}): Promise<ListeningApp> {
  const t = await startTestApp(opts);
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return Object.assign(t, { url });
}

/** What the proxy does with one request: answer it itself, drop the connection, or pass it on. */
export type ProxyAction = { status: number; headers?: Record<string, string>; body?: string } | 'reset' | 'forward';

export interface FaultProxy {
  url: string;
  /** Requests seen, as `METHOD /path`. */
  seen: string[];
  /** Actions for the next requests, in order; once empty, every request is forwarded. */
  script(actions: ProxyAction[]): void;
  close(): Promise<void>;
}

function forward(target: URL, req: IncomingMessage, res: ServerResponse): void {
  const upstream = http.request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}

export async function startFaultProxy(targetUrl: string): Promise<FaultProxy> {
  const target = new URL(targetUrl);
  let actions: ProxyAction[] = [];
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const action = actions.shift() ?? 'forward';
    if (action === 'forward') return forward(target, req, res);
    req.resume();
    if (action === 'reset') return void req.socket.destroy();
    res.writeHead(action.status, { 'content-type': 'text/html', ...action.headers });
    res.end(action.body ?? `<html><body>${action.status} from the proxy</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    script: (next) => {
      actions = [...next];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A sleep that records each wait and moves the fake clock instead of waiting. */
export function recordingSleep(onSleep: (ms: number) => void = () => undefined): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms) => {
      waits.push(ms);
      onSleep(ms);
    },
  };
}

/** An http URL on 127.0.0.1 where nothing listens (a port just released): connections are refused. */
export async function refusedUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
