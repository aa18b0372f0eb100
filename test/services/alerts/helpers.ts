// Real local receivers for the alert tests, and a sample alert. Hosts under example.test are pointed at
// 127.0.0.1 through a resolve map, exactly as TRACKCHECK_RESOLVE would: nothing leaves this machine.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseResolveMap } from '../../../src/checker/net/address-policy.js';
import type { Alert } from '../../../src/services/alerts/index.js';

export const RESOLVE = parseResolveMap('hooks.example.test=127.0.0.1,slack.example.test=127.0.0.1,other.example.test=127.0.0.1');

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Receiver {
  port: number;
  /** Requests whose body was read to the end. */
  requests: ReceivedRequest[];
  /** TCP connections accepted: 0 proves nothing was contacted. */
  connections: number;
  url(host: string, path?: string): string;
  close(): Promise<void>;
}

/** `respond` gets each request with its full body; when it returns nothing the request hangs. */
export async function startReceiver(respond: (req: ReceivedRequest, res: http.ServerResponse) => void): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(received);
      respond(received, res);
    });
  });
  const receiver: Receiver = {
    port: 0,
    requests,
    connections: 0,
    url: (host, path = '/hook') => `http://${host}:${receiver.port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => {
    receiver.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  return receiver;
}

export const CREATED_AT = '2026-11-20T08:00:00.000Z';

export function sampleAlert(overrides: Partial<Alert['monitor']> = {}): Alert {
  return {
    event: {
      id: '0f8e3c52-3d0c-4d55-9a43-2f4fd1c1a0b1',
      monitorId: '6a1d4b0e-95a5-4b8e-8f0e-7d2b8c3e9f10',
      type: 'monitor.broken',
      createdAt: CREATED_AT,
      checkSlug: 'k3v9x0m2q8w1zt',
      previousCheckSlug: 'a8d2j5n7p1r4ts',
      changes: [
        { field: 'willTrack', from: true, to: false },
        { field: 'finalUrl', from: 'https://shop.example/p/42?awc=1', to: 'https://shop.example/' },
        { field: 'issues', from: [], to: ['homepage_fallback'] },
      ],
      deliveries: [
        { channel: { type: 'email', to: 'ops@example.com', hasSecret: false }, status: 'pending', attempts: 0, lastError: null },
      ],
    },
    monitor: { name: 'Spring sale <Awin>', url: 'https://www.awin1.com/cread.php?awinmid=1&awinaffid=2', state: 'broken', ...overrides },
    reportUrl: 'https://trackcheck.example/r/k3v9x0m2q8w1zt',
    previousReportUrl: 'https://trackcheck.example/r/a8d2j5n7p1r4ts',
  };
}
