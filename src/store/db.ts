// Opens the database named by a `sqlite:<path>` or `postgres://…` URL. Every dialect difference of the project
// lives in src/store/: callers get one Kysely<Database> and the `dialect` object (dialect.ts) for the few queries
// that differ.
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import type { Database } from './schema.js';
import { preparePrivateDatabaseFile } from '../lib/private-file.js';

import { DIALECTS, type Dialect } from './dialect.js';

export type { Dialect, DialectName } from './dialect.js';

export interface Db {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Cheap round trip used by /health. Throws when the database is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely prepares every query it runs, and better-sqlite3 compiles the SQL on each prepare: on the read paths that
 * was a tenth of a request's CPU. The compiled statement is reused per SQL text (least recently used dropped
 * first); one that is mid-iteration (a streamed query) is never handed out twice.
 */
function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(source) {
      const cached = cache.get(source);
      if (cached && !cached.busy) {
        cache.delete(source);
        cache.set(source, cached);
        return cached;
      }
      const statement = database.prepare(source);
      cache.set(source, statement);
      if (cache.size > STATEMENT_CACHE_SIZE) {
        const oldest = cache.keys().next();
        if (!oldest.done) cache.delete(oldest.value);
      }
      return statement;
    },
  };
}

// Each driver is loaded only by a process that uses it: start-up stays short, and a PostgreSQL deployment never
// loads SQLite's native module (nor the other way round).
async function openSqlite(file: string): Promise<Db> {
  const { default: SQLiteDatabase } = await import('better-sqlite3');
  // Checks, users' key hashes and usage: nobody else on the machine reads them (0600 file, 0700 dir when created).
  if (file !== ':memory:') preparePrivateDatabaseFile(path.resolve(file));
  const database = new SQLiteDatabase(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  // Several processes (serve + worker) may share the file: wait for a lock rather than fail.
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  return {
    db,
    dialect: DIALECTS.sqlite,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/** /health must answer while a hung server holds queries for the full query_timeout: a load balancer's check
 * gives up after a few seconds, and an unreachable answer is the useful one. */
const PING_TIMEOUT_MS = 2000;

async function withDeadline(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`database did not answer within ${ms} ms`)), ms);
  });
  // The query itself still ends (answer or query_timeout); nothing waits for it past the deadline.
  work.catch(() => undefined);
  try {
    await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function openPostgres(url: string): Promise<Db> {
  const { default: postgres } = await import('pg');
  // PostgreSQL returns BIGINT (int8) and COUNT(*) as strings by default; our counters fit in a JS number.
  postgres.types.setTypeParser(postgres.types.builtins.INT8, (value: string) => Number(value));
  const pool: pg.Pool = new postgres.Pool({
    connectionString: url,
    max: 20,
    connectionTimeoutMillis: 3000,
    // Fail a stuck query instead of hanging a request forever when the server goes away mid-flight.
    query_timeout: 15000,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  // pg-pool only listens for errors while a client is idle: a connection reset while Kysely holds the client
  // (between statements, or while releasing it) was an unhandled 'error' event that killed the process.
  // The failed query still rejects, and the pool discards the broken client when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: DIALECTS.postgres,
    ping: () => withDeadline(sql`select 1`.execute(db), PING_TIMEOUT_MS),
    close: () => db.destroy(),
  };
}

export async function openDb(databaseUrl: string): Promise<Db> {
  if (databaseUrl.startsWith('sqlite:')) return openSqlite(databaseUrl.slice('sqlite:'.length));
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return openPostgres(databaseUrl);
  throw new Error(`unsupported database URL: ${databaseUrl.split(':')[0]}`);
}
