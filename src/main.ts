// The `trackcheck` CLI: serve | worker | check <url> | batch | scan | report | monitor | session-token --user <id> | migrate
import { existsSync } from 'node:fs';
import { ConfigError, loadConfig } from './config.js';
import { startServer } from './server.js';
import { openStore } from './store/index.js';
import { SchemaNewerThanCode } from './store/migrate.js';
import { isDatabaseUnavailable } from './lib/database-unavailable.js';
import { VERSION } from './lib/version.js';
import { checkCommand } from './cli/check-command.js';
import { workerCommand } from './cli/worker-command.js';
import { batchCommand } from './cli/batch-command.js';
import { scanCommand } from './cli/scan-command.js';
import { reportCommand } from './cli/report-command.js';
import { monitorCommand } from './cli/monitor-command.js';
import { sessionTokenCommand } from './cli/session-token-command.js';

const USAGE = `trackcheck ${VERSION}

Usage:
  trackcheck serve                         start the API, web pages and workers (PORT, HOST, TRACKCHECK_*)
  trackcheck worker                        run queued checks in this process (no HTTP)
  trackcheck check <url>                   check one link now and print the report
            [--format text|json|csv|markdown] [-o <file>] [--type link|cmp]
                                           (exit 0 will track, 1 will not, 3 could not verify
                                           or no tracking found, 2 bad input or no service)
            [--server <url>] [--local]     through a trackcheck service (TRACKCHECK_SERVER, TRACKCHECK_API_KEY)
  trackcheck batch <file|->                check a list of links through a service (one per line, or a
                                           CSV with a url column, whose other columns stay in the results)
            [--format text|json|csv|markdown] [-o <file>] [--name <text>] [--no-progress]
            [--column <name>] [--type link|cmp] [--server <url>]
                                           (--server / TRACKCHECK_SERVER, default http://127.0.0.1:3000;
                                           TRACKCHECK_API_KEY required; exit 0 every link will track,
                                           1 otherwise, 2 errors)
  trackcheck scan <page-or-sitemap-url>    find and check every affiliate link of a page (or of a
                                           sitemap's pages) through a service
            [--render] [--format text|json|csv|markdown] [-o <file>] [--no-progress]
            [--type link|cmp] [--server <url>]
                                           (exit codes as batch; 2 also when no page could be read)
  trackcheck report <slug> [--evidence]    print a stored report (or its evidence file) from a service
            [--format text|json|csv|markdown] [-o <file>]
  trackcheck monitor add <url>             re-check a link on a schedule, alert when the answer changes
            [--name <text>] [--interval <minutes>] [--check-type link|cmp]
            [--webhook <url> [--secret <text>]] [--slack <url>] [--email <address>]
  trackcheck monitor list|show <id>|run <id>|rm <id>
            [--format text|json] [--server <url>]
                                           (trackcheck monitor --help for more)
  trackcheck migrate                       bring the database schema up to date and exit
  trackcheck session-token --user <id>     print a session token for the embedded identity provider
            [--ttl <seconds>] [--login-url]  (--login-url: a one-time sign-in link for the web pages instead)
  trackcheck --version, -v                 print the version
  trackcheck help                          this text

-o <file> writes the result to the file (whole or not at all); progress and summaries stay on stderr.
Configuration is read from the environment (and ./.env when present); see the README.`;

/** A database URL fit for printing: any password replaced. */
const withoutPassword = (url: string): string => url.replace(/\/\/[^@/]*@/, '//***@');

/** One line for an error; a connection refused on every address is an AggregateError with an empty message. */
function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err.message) return err.message;
  if (err instanceof AggregateError && err.errors[0] instanceof Error) return describeError(err.errors[0]);
  return String((err as { code?: unknown }).code ?? err.name);
}

type Command = (args: string[], env: Record<string, string | undefined>) => Promise<number>;

async function serve(_args: string[], env: Record<string, string | undefined>): Promise<number> {
  const server = await startServer(env);
  const stop = async (signal: string) => {
    server.app.log.info(`${signal} received, shutting down`);
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  await new Promise<never>(() => undefined);
  return 0;
}

async function migrate(_args: string[], env: Record<string, string | undefined>): Promise<number> {
  const config = loadConfig(env);
  const store = await openStore(config.databaseUrl);
  await store.close();
  console.log(`database schema is up to date (${withoutPassword(config.databaseUrl)})`);
  return 0;
}

const COMMANDS: Record<string, Command> = {
  serve,
  worker: workerCommand,
  check: checkCommand,
  migrate,
  batch: batchCommand,
  scan: scanCommand,
  report: reportCommand,
  monitor: monitorCommand,
  'session-token': sessionTokenCommand,
};

export async function main(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  const [name = 'help', ...args] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    console.log(VERSION);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.log(USAGE);
    return name === 'help' || name === '--help' || name === '-h' ? 0 : 2;
  }
  if (env === process.env && existsSync('.env')) process.loadEnvFile('.env');
  try {
    return await command(args, env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`);
      return 2;
    }
    if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS')) {
      console.error(err.message);
      return 2;
    }
    // Operational failures a user can fix get one line, not a stack trace.
    if (err instanceof SchemaNewerThanCode) {
      console.error(`database error: ${err.message}`);
      return 1;
    }
    if (isDatabaseUnavailable(err)) {
      console.error(`database unavailable: ${describeError(err)}; check TRACKCHECK_DATABASE_URL and that the database server is running`);
      return 1;
    }
    throw err;
  }
}
