// The data dir is created 0700 and the SQLite database with its -wal and -shm files is 0600, also when an older
// version left them readable by everyone (issue 13).
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/context.js';
import { openStore } from '../../src/store/index.js';

const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8);

describe('file modes of the data dir and the SQLite database', () => {
  let root: string;
  let previousUmask: number;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-modes-'));
    previousUmask = process.umask(0o022); // the usual default, which made everything world-readable
  });
  afterEach(() => {
    process.umask(previousUmask);
    rmSync(root, { recursive: true, force: true });
  });

  it('creates the data dir 0700 and trackcheck.db, -wal and -shm 0600', async () => {
    const dataDir = path.join(root, 'nested', 'data');
    const ctx = await createContext(loadConfig({ TRACKCHECK_DATA_DIR: dataDir, TRACKCHECK_WORKER_CONCURRENCY: '0' }));
    try {
      await ctx.store.usage.consume('203.0.113.1', 'link', '2030-W01', 3); // a write: the WAL has content
      const db = path.join(dataDir, 'trackcheck.db');
      expect(modeOf(dataDir)).toBe('700');
      expect(modeOf(path.join(root, 'nested'))).toBe('700');
      expect(modeOf(db)).toBe('600');
      expect(modeOf(`${db}-wal`)).toBe('600');
      expect(modeOf(`${db}-shm`)).toBe('600');
    } finally {
      await ctx.close();
    }
  });

  it('narrows the files an older version left world-readable, and leaves a directory it does not own alone', async () => {
    const shared = path.join(root, 'shared');
    mkdirSync(shared, { mode: 0o755 });
    const db = path.join(shared, 'trackcheck.db');
    for (const name of [db, `${db}-wal`, `${db}-shm`]) writeFileSync(name, '', { mode: 0o644 });
    const store = await openStore(`sqlite:${db}`);
    try {
      await store.usage.consume('203.0.113.1', 'link', '2030-W01', 3);
      for (const name of [db, `${db}-wal`, `${db}-shm`]) expect(modeOf(name), name).toBe('600');
      expect(modeOf(shared)).toBe('755');
    } finally {
      await store.close();
    }
  });
});
