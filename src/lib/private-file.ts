// Files only this service's user may read: the data dir (0700), the secrets kept in it and the SQLite database with
// its write-ahead log and shared-memory file (0600). A private file is created exactly once, even when several
// processes race: the content is written in full under a temporary name and hard-linked into place, and link() fails
// for everyone but the first (the embedded identity provider's key, the web session secret).
import { randomUUID } from 'node:crypto';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { link, open, unlink } from 'node:fs/promises';
import path from 'node:path';

export function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

/** Creates `dir` and any missing parents with mode 0700. A directory that exists already is left as it is: it may be
 * shared (`sqlite:/srv/db/trackcheck.db` names a directory trackcheck does not own). */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/**
 * A SQLite database file readable by this user only, created empty (a valid empty database) when missing, before
 * SQLite opens it: SQLite creates the -wal, -shm and -journal files with the database file's own mode. Files left
 * wider by an older version are narrowed; one owned by another user (EPERM) is left as it is.
 */
export function preparePrivateDatabaseFile(file: string): void {
  ensurePrivateDir(path.dirname(file));
  // Only a new file is opened here: closing a descriptor of a database this process has open would drop SQLite's
  // POSIX locks on it.
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (err) {
    if (errorCode(err) !== 'EEXIST') throw err;
  }
  for (const name of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      chmodSync(name, 0o600);
    } catch (err) {
      if (errorCode(err) !== 'ENOENT' && errorCode(err) !== 'EPERM') throw err;
    }
  }
}

/** Writes `body` to `file` unless it already exists; never overwrites. A racing loser leaves the winner's file. */
export async function createPrivateFileOnce(file: string, body: string): Promise<void> {
  const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.chmod(0o600); // the umask may have narrowed it further, never widened, but be exact
    await handle.writeFile(body, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(temp, file);
  } catch (err) {
    if (errorCode(err) === 'EEXIST') return;
    if (!['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP'].includes(errorCode(err) ?? '')) throw err;
    await createInPlace(file, body); // file systems without hard links
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

// Exclusive create still guarantees one winner; a reader racing the write may see a partial file, so readers
// retry for a moment before calling it corrupt.
async function createInPlace(file: string, body: string): Promise<void> {
  let handle;
  try {
    handle = await open(file, 'wx', 0o600);
  } catch (err) {
    if (errorCode(err) === 'EEXIST') return;
    throw err;
  }
  try {
    await handle.writeFile(body, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}
