// Creates a private file (mode 0600) exactly once, even when several processes race: the content is written in
// full under a temporary name and hard-linked into place, and link() fails for everyone but the first. Used for
// the secrets kept in the data dir (the embedded identity provider's key, the web session secret).
import { randomUUID } from 'node:crypto';
import { link, open, unlink } from 'node:fs/promises';

export function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
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
