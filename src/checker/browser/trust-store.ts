// Extra certificate authorities for Chromium (TRACKCHECK_EXTRA_CA_CERTS). Chromium on Linux trusts, besides
// its root store, the certificates of the NSS database in $HOME/.pki/nssdb; the browser is started with a
// HOME of its own holding such a database with exactly the operator's CAs, made with NSS's `certutil`
// (Debian package libnss3-tools). The HTTP follower gets the same certificates (pinned-agent.ts).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export class TrustStoreUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrustStoreUnavailable';
  }
}

// The certificates never change while the process runs: a relaunch (after a crash, say) reuses the database
// built for the first launch, as long as it is still on disk.
const built = new Map<string, { done: boolean; home: Promise<string> }>();

/**
 * An NSS database trusting `certs` (PEM, one certificate each) for server authentication under
 * `homeDir/.pki/nssdb`, built once per process; returns `homeDir`, to be Chromium's HOME.
 */
export async function prepareTrustStore(homeDir: string, certs: readonly string[]): Promise<string> {
  const key = `${homeDir}\n${certs.join('\n')}`;
  const cached = built.get(key);
  if (cached !== undefined && (!cached.done || existsSync(path.join(homeDir, '.pki', 'nssdb', 'cert9.db')))) return cached.home;
  const entry = { done: false, home: buildTrustStore(homeDir, certs) };
  built.set(key, entry);
  entry.home.then(
    () => (entry.done = true),
    () => built.delete(key),
  );
  return entry.home;
}

async function buildTrustStore(homeDir: string, certs: readonly string[]): Promise<string> {
  const db = path.join(homeDir, '.pki', 'nssdb');
  await rm(homeDir, { recursive: true, force: true });
  await mkdir(db, { recursive: true, mode: 0o700 });
  const certutil = async (args: string[]): Promise<void> => {
    try {
      await run('certutil', ['-d', `sql:${db}`, ...args]);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        throw new TrustStoreUnavailable(
          'TRACKCHECK_EXTRA_CA_CERTS needs NSS certutil for the browser (Debian: apt-get install libnss3-tools)',
        );
      }
      const stderr = String((err as { stderr?: unknown }).stderr ?? '').trim();
      throw new TrustStoreUnavailable(`certutil could not build the browser's trust store: ${stderr || (err as Error).message}`);
    }
  };
  await certutil(['-N', '--empty-password']);
  for (const [index, cert] of certs.entries()) {
    const file = path.join(homeDir, `extra-ca-${index}.pem`);
    await writeFile(file, cert);
    // "C,,": a trusted CA for TLS servers only (not for e-mail or code signing).
    await certutil(['-A', '-n', `trackcheck-extra-ca-${index}`, '-t', 'C,,', '-i', file]);
  }
  return homeDir;
}
