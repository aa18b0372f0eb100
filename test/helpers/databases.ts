// The databases every route suite runs on: a fresh SQLite file always, a fresh PostgreSQL schema when
// TRACKCHECK_TEST_DATABASE_URL is set (CI sets it).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface TestDatabase {
  url: string;
  /** Where the SQLite file lives (null on PostgreSQL). */
  file: string | null;
  drop(): Promise<void>;
}

export interface DatabaseKind {
  name: 'sqlite' | 'postgres';
  create(): Promise<TestDatabase>;
}

export const sqliteDatabase: DatabaseKind = {
  name: 'sqlite',
  async create() {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-db-'));
    const file = path.join(dir, 'trackcheck.db');
    return { url: `sqlite:${file}`, file, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  },
};

const pgUrl = process.env.TRACKCHECK_TEST_DATABASE_URL;

/** A schema of its own per call, named so parallel runs never meet; dropped afterwards. */
export const postgresDatabase: DatabaseKind = {
  name: 'postgres',
  async create() {
    if (!pgUrl) throw new Error('TRACKCHECK_TEST_DATABASE_URL is not set');
    const schema = `tc_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = new URL(pgUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return {
      url: url.toString(),
      file: null,
      drop: async () => {
        const client = new pg.Client({ connectionString: pgUrl });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      },
    };
  },
};

/** SQLite always; PostgreSQL too when its URL is configured. */
export const DATABASES: DatabaseKind[] = pgUrl ? [sqliteDatabase, postgresDatabase] : [sqliteDatabase];
export const REDIS_URL = process.env.TRACKCHECK_TEST_REDIS_URL;
