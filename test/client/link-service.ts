// A running service in front of the link simulator, an API key, and in-memory streams for running CLI commands
// in-process (stderr's isTTY chosen by the test).
import { Readable } from 'node:stream';
import type { CliIo } from '../../src/cli/remote.js';
import { startLinkWeb, type LinkWeb } from './link-web.js';
import { startListeningApp, type ListeningApp } from './running-service.js';

export interface LinkService {
  t: ListeningApp;
  links: LinkWeb;
  key: string;
  /** The env a CLI command gets: server and key. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startLinkService(env: Record<string, string> = {}): Promise<LinkService> {
  const links = await startLinkWeb();
  const t = await startListeningApp({
    env: { TRACKCHECK_RESOLVE: links.resolveSpec, TRACKCHECK_RATE_LIMIT: '100000', ...env },
    engineOptions: { extraCaCerts: [links.caCert] },
  });
  const key = (await t.createKey('cli-user')).key;
  return {
    t,
    links,
    key,
    env: { TRACKCHECK_SERVER: t.url, TRACKCHECK_API_KEY: key },
    async close() {
      await t.close();
      await links.close();
    },
  };
}

export interface FakeIo {
  io: CliIo;
  stdout(): string;
  stderr(): string;
}

export function fakeIo(opts: { isTTY?: boolean; stdin?: string; fetch?: CliIo['fetch']; sleep?: CliIo['sleep'] } = {}): FakeIo {
  let out = '';
  let err = '';
  return {
    io: {
      stdin: Readable.from([Buffer.from(opts.stdin ?? '')]),
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: (text: string) => (err += text), isTTY: opts.isTTY ?? false, columns: 100 },
      fetch: opts.fetch,
      sleep: opts.sleep,
    },
    stdout: () => out,
    stderr: () => err,
  };
}
