// Test helpers for the auth suites: a real JWKS server on 127.0.0.1 and hand-crafted tokens.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';

export interface JwksServer {
  url: string;
  /** Number of key-set requests served so far. */
  requests: () => number;
  setKeys: (keys: JWK[]) => void;
  /** Answer with this status and body instead of the key set; null restores normal service. */
  setFailure: (failure: { status: number; body: string } | null) => void;
  /** Accept connections but never answer. */
  hang: () => void;
  close: () => Promise<void>;
}

export async function startJwksServer(initial: JWK[] = []): Promise<JwksServer> {
  let keys = initial;
  let failure: { status: number; body: string } | null = null;
  let hanging = false;
  let count = 0;
  const server: Server = createServer((req, res) => {
    count += 1;
    if (hanging) return;
    if (failure) {
      res.writeHead(failure.status, { 'content-type': 'application/json' }).end(failure.body);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    requests: () => count,
    setKeys: (next) => {
      keys = next;
    },
    setFailure: (next) => {
      failure = next;
    },
    hang: () => {
      hanging = true;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/jwks.json`;
}

export interface TestKey {
  alg: string;
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function makeKey(alg: 'RS256' | 'ES256' | 'EdDSA', kid: string): Promise<TestKey> {
  const pair = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' };
  return { alg, kid, privateKey: pair.privateKey, publicJwk };
}

export function b64url(value: string | Uint8Array): string {
  return Buffer.from(value).toString('base64url');
}

/** A compact JWS built by hand, for tokens no library would sign (alg none, odd headers). */
export function craftToken(header: object, payload: object, signature = ''): string {
  return `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}.${signature}`;
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
