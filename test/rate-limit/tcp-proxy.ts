import net from 'node:net';

/** A TCP forwarder on 127.0.0.1 that a test can take down, bring back on the same port, or freeze
 * (accept bytes, answer nothing) to simulate a Redis that is down or hung. */
export interface TcpProxy {
  readonly port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  setFrozen(frozen: boolean): void;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const paused = new Set<net.Socket>();
  let frozen = false;
  let server: net.Server | undefined;
  let port = 0;

  function handle(client: net.Socket): void {
    const upstream = net.connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
    if (frozen) {
      client.pause();
      paused.add(client);
    }
  }

  async function listen(): Promise<void> {
    const next = net.createServer(handle);
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    const address = next.address();
    if (address === null || typeof address === 'string') throw new Error('proxy has no TCP address');
    port = address.port;
    server = next;
  }

  await listen();
  return {
    get port() {
      return port;
    },
    async stop() {
      const current = server;
      server = undefined;
      for (const s of sockets) s.destroy();
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    start: listen,
    setFrozen(value) {
      frozen = value;
      for (const s of sockets) {
        // Only the client side reads commands; pausing it means Redis never sees them.
        if (value && !paused.has(s)) {
          s.pause();
          paused.add(s);
        } else if (!value && paused.has(s)) {
          s.resume();
          paused.delete(s);
        }
      }
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on: bound, then closed. */
export async function findClosedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}
