// Environment → typed Config, validated once at start-up. Nothing else in the project reads process.env.
import path from 'node:path';
import { domainToASCII } from 'node:url';
import { existsSync, readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { parseResolveMap, type ResolveMap } from './checker/net/address-policy.js';
import { parseTrustProxy, type TrustProxy } from './http/client-address.js';
import { defaultAlertFrom } from './services/smtp.js';
import { DEFAULT_SCAN_MAX_PAGES } from './checker/scan/sitemap-plan.js';

export type IdentityConfig =
  | { mode: 'jwks'; jwksUrl: string; issuer?: string; audience?: string }
  | { mode: 'secret'; secret: string; issuer?: string; audience?: string }
  | { mode: 'embedded'; dataDir: string };

/** Web sign-in with an external OpenID Connect provider (authorization code + PKCE). */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  /** Null for a public client (PKCE only, token endpoint auth `none`). */
  clientSecret: string | null;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  redisUrl: string | null;
  publicUrl: string;
  identity: IdentityConfig;
  rateLimit: number;
  anonRateLimit: number;
  anonWeeklyChecks: number;
  /** `TRACKCHECK_TRUST_PROXY`: how far X-Forwarded-For is believed (false = not at all, the socket address). */
  trustProxy: TrustProxy;
  /** `TRACKCHECK_RESOLVE`: static DNS for the checker (empty when unset). */
  resolve: ResolveMap;
  chromiumPath: string | null;
  /** `TRACKCHECK_EXTRA_CA_CERTS`: certificate authorities (PEM, one each) the follower and the browser trust too. */
  extraCaCerts: string[];
  syncWaitMs: number;
  /** Checks run at once by this process's workers (0 = no in-process worker). */
  workerConcurrency: number;
  /** Browser pages (Chromium contexts) this process runs at once. */
  browserConcurrency: number;
  /** `TRACKCHECK_CHECK_DEADLINE_MS`: the longest one check may take, every pass and consent scenario included. */
  checkDeadlineMs: number;
  /** `TRACKCHECK_BROWSER_MEMORY_MB`: the ceiling for Chromium's whole process tree. */
  browserMemoryMb: number;
  /** Checks run at once against one host: by all workers together on PostgreSQL, per process on SQLite. */
  perHostConcurrency: number;
  /** How long a worker's claim on a job lasts without renewal; a dead worker's jobs are retried after it. */
  jobLeaseMs: number;
  /** `TRACKCHECK_SCAN_MAX_PAGES`: pages of a sitemap one scan visits (CONTRACT.md section 9). */
  scanMaxPages: number;
  logLevel: string;
  /** `TRACKCHECK_OIDC_*`: web sign-in through an OpenID provider; null = none configured. */
  oidc: OidcConfig | null;
  /** `TRACKCHECK_SESSION_SECRET`: signs web sessions, CSRF tokens and login links; null = a secret kept in the data dir. */
  sessionSecret: string | null;
  /** How long a web sign-in lasts. */
  sessionTtlSeconds: number;
  /** `TRACKCHECK_METRICS_TOKEN`: the bearer token /metrics asks for; null = /metrics is not served at all. */
  metricsToken: string | null;
  /** `TRACKCHECK_SMTP_URL` (`smtp://` or `smtps://`): alert email and email sign-in links; null = no email at all. */
  smtpUrl: string | null;
  /** `TRACKCHECK_ALERT_FROM`: the sender of every email trackcheck sends; default `trackcheck@<public URL host>`. */
  alertFrom: string;
  /** `TRACKCHECK_MONITORS_PER_USER`: monitors one user may have (not counting deleted ones). */
  monitorsPerUser: number;
  /** `TRACKCHECK_MONITOR_CONFIRM_MS`: the delay of the confirming run before a `monitor.broken` alert. */
  monitorConfirmMs: number;
  /** `TRACKCHECK_ALERT_RETRY_MS`: the first retry delay of an alert delivery, doubling each time. */
  alertRetryMs: number;
  /** `TRACKCHECK_EMAIL_SIGNIN_DOMAINS`: the only domains email sign-in accepts (lowercase, ASCII); null = any. */
  emailSignInDomains: string[] | null;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function readString(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = readString(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function readUrl(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = readString(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `not a valid URL: "${raw}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(name, `expected a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL, got "${url.protocol}"`);
  }
  return raw;
}

function readDatabaseUrl(env: Env, dataDir: string): string {
  const raw = readString(env, 'TRACKCHECK_DATABASE_URL');
  if (raw === undefined) return `sqlite:${path.join(dataDir, 'trackcheck.db')}`;
  if (raw.startsWith('sqlite:')) {
    if (raw.length === 'sqlite:'.length) throw new ConfigError('TRACKCHECK_DATABASE_URL', 'sqlite: needs a file path');
    return raw;
  }
  if (/^postgres(ql)?:\/\//.test(raw)) return readUrl(env, 'TRACKCHECK_DATABASE_URL', ['postgres:', 'postgresql:']) ?? raw;
  throw new ConfigError('TRACKCHECK_DATABASE_URL', `expected sqlite:<path> or postgres://…, got "${raw}"`);
}

function readIdentity(env: Env, dataDir: string): IdentityConfig {
  const jwksUrl = readUrl(env, 'TRACKCHECK_JWKS_URL', ['http:', 'https:']);
  const secret = readString(env, 'TRACKCHECK_JWT_SECRET');
  const issuer = readString(env, 'TRACKCHECK_JWT_ISSUER');
  const audience = readString(env, 'TRACKCHECK_JWT_AUDIENCE');
  if (jwksUrl && secret) {
    throw new ConfigError(
      'TRACKCHECK_JWKS_URL',
      'TRACKCHECK_JWKS_URL and TRACKCHECK_JWT_SECRET are both set; choose one session-token verification mode',
    );
  }
  if (jwksUrl) return { mode: 'jwks', jwksUrl, issuer, audience };
  if (secret) {
    if (Buffer.byteLength(secret) < 32) {
      throw new ConfigError('TRACKCHECK_JWT_SECRET', 'must be at least 32 bytes long');
    }
    return { mode: 'secret', secret, issuer, audience };
  }
  if (issuer || audience) {
    const name = issuer ? 'TRACKCHECK_JWT_ISSUER' : 'TRACKCHECK_JWT_AUDIENCE';
    throw new ConfigError(name, 'only applies with TRACKCHECK_JWKS_URL or TRACKCHECK_JWT_SECRET');
  }
  return { mode: 'embedded', dataDir };
}

function readOidc(env: Env): OidcConfig | null {
  const issuer = readUrl(env, 'TRACKCHECK_OIDC_ISSUER', ['http:', 'https:']);
  const clientId = readString(env, 'TRACKCHECK_OIDC_CLIENT_ID');
  const clientSecret = readString(env, 'TRACKCHECK_OIDC_CLIENT_SECRET');
  if (!issuer) {
    if (clientId) throw new ConfigError('TRACKCHECK_OIDC_CLIENT_ID', 'only applies with TRACKCHECK_OIDC_ISSUER');
    if (clientSecret) throw new ConfigError('TRACKCHECK_OIDC_CLIENT_SECRET', 'only applies with TRACKCHECK_OIDC_ISSUER');
    return null;
  }
  const url = new URL(issuer);
  // The issuer identifier is compared byte for byte with the provider's discovery document; these never belong.
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError('TRACKCHECK_OIDC_ISSUER', 'must be the bare issuer identifier (no query, fragment or credentials)');
  }
  if (!clientId) throw new ConfigError('TRACKCHECK_OIDC_CLIENT_ID', 'is required with TRACKCHECK_OIDC_ISSUER');
  return { issuer, clientId, clientSecret: clientSecret ?? null };
}

function readSessionSecret(env: Env): string | null {
  const secret = readString(env, 'TRACKCHECK_SESSION_SECRET');
  if (secret === undefined) return null;
  if (Buffer.byteLength(secret) < 32) throw new ConfigError('TRACKCHECK_SESSION_SECRET', 'must be at least 32 bytes long');
  return secret;
}

function readMetricsToken(env: Env): string | null {
  const name = 'TRACKCHECK_METRICS_TOKEN';
  const token = readString(env, name);
  if (token === undefined) return null;
  // It travels as a bearer token (RFC 6750 characters) and guards operational data: long enough not to be guessed.
  if (!/^[A-Za-z0-9\-._~+/]{16,512}=*$/.test(token)) {
    throw new ConfigError(name, 'must be 16 to 512 characters of A-Z a-z 0-9 - . _ ~ + / (e.g. the output of `openssl rand -hex 32`)');
  }
  return token;
}

// SMTP URLs usually carry a password: no message below quotes the value.
function readSmtpUrl(env: Env): string | null {
  const name = 'TRACKCHECK_SMTP_URL';
  const raw = readString(env, name);
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'not a valid URL (expected smtp://[user:password@]host[:port] or smtps://…)');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError(name, `expected an smtp or smtps URL, got "${url.protocol}"`);
  }
  if (url.hostname === '') throw new ConfigError(name, 'names no host (expected smtp://[user:password@]host[:port] or smtps://…)');
  return raw;
}

// One address, optionally with a display name: `trackcheck@example.com` or `trackcheck <trackcheck@example.com>`.
const MAIL_ADDRESS = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])$/;
const FROM_WITH_NAME = /^([^<>"\\,;]*?)\s*<([^<>]+)>$/;

/** `publicUrl`: the configured public URL, else `http://HOST` (the default needs the host only). */
function readAlertFrom(env: Env, publicUrl: string): string {
  const name = 'TRACKCHECK_ALERT_FROM';
  const raw = readString(env, name);
  if (raw === undefined) return defaultAlertFrom(publicUrl);
  // A line break would start a new mail header: refused outright, whatever the mailer would make of it.
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new ConfigError(name, 'must be one line without control characters');
  const named = FROM_WITH_NAME.exec(raw);
  const address = named ? (named[2] ?? '') : raw;
  if (!MAIL_ADDRESS.test(address)) {
    throw new ConfigError(
      name,
      `expected one email address such as trackcheck@example.com or "trackcheck <trackcheck@example.com>", got "${raw}"`,
    );
  }
  return raw;
}

function readEmailSignInDomains(env: Env): string[] | null {
  const name = 'TRACKCHECK_EMAIL_SIGNIN_DOMAINS';
  const raw = readString(env, name);
  if (raw === undefined) return null;
  if (readString(env, 'TRACKCHECK_SMTP_URL') === undefined) throw new ConfigError(name, 'only applies with TRACKCHECK_SMTP_URL');
  const domains = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (domains.length === 0) throw new ConfigError(name, 'expected a comma-separated list of domains such as example.com,example.org');
  return domains.map((domain) => {
    const ascii = domainToASCII(domain.toLowerCase().replace(/\.$/, ''));
    if (ascii === '' || !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(ascii))
      throw new ConfigError(name, `"${domain}" is not a domain name such as example.com`);
    return ascii;
  });
}

function readTrustProxy(env: Env): TrustProxy {
  try {
    return parseTrustProxy(readString(env, 'TRACKCHECK_TRUST_PROXY'));
  } catch (err) {
    throw new ConfigError('TRACKCHECK_TRUST_PROXY', err instanceof Error ? err.message : String(err));
  }
}

function readResolveMap(env: Env): ResolveMap {
  try {
    return parseResolveMap(readString(env, 'TRACKCHECK_RESOLVE'));
  } catch (err) {
    throw new ConfigError('TRACKCHECK_RESOLVE', err instanceof Error ? err.message : String(err));
  }
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM bundle file, each checked to parse. */
function readExtraCaCerts(env: Env): string[] {
  const name = 'TRACKCHECK_EXTRA_CA_CERTS';
  const file = readString(env, name);
  if (file === undefined) return [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(name, `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const certs = text.match(PEM_CERTIFICATE) ?? [];
  if (certs.length === 0) throw new ConfigError(name, `${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  for (const [index, cert] of certs.entries()) {
    try {
      new X509Certificate(cert);
    } catch {
      throw new ConfigError(name, `certificate ${index + 1} in ${file} cannot be parsed`);
    }
  }
  return certs.map((cert) => `${cert}\n`);
}

function defaultChromium(): string | null {
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : null;
}

export function loadConfig(env: Env): Config {
  const port = readInt(env, 'PORT', 3000, 0, 65535);
  const host = readString(env, 'HOST') ?? '127.0.0.1';
  const dataDir = path.resolve(readString(env, 'TRACKCHECK_DATA_DIR') ?? './data');
  const logLevel = readString(env, 'TRACKCHECK_LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('TRACKCHECK_LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const publicUrl = readUrl(env, 'TRACKCHECK_PUBLIC_URL', ['http:', 'https:']);
  return {
    port,
    host,
    dataDir,
    databaseUrl: readDatabaseUrl(env, dataDir),
    redisUrl: readUrl(env, 'TRACKCHECK_REDIS_URL', ['redis:', 'rediss:']) ?? null,
    publicUrl: (publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, ''),
    identity: readIdentity(env, dataDir),
    rateLimit: readInt(env, 'TRACKCHECK_RATE_LIMIT', 60, 1, 1_000_000),
    anonRateLimit: readInt(env, 'TRACKCHECK_ANON_RATE_LIMIT', 20, 1, 1_000_000),
    anonWeeklyChecks: readInt(env, 'TRACKCHECK_ANON_WEEKLY_CHECKS', 3, 0, 1_000_000),
    trustProxy: readTrustProxy(env),
    resolve: readResolveMap(env),
    chromiumPath: readString(env, 'TRACKCHECK_CHROMIUM_PATH') ?? defaultChromium(),
    extraCaCerts: readExtraCaCerts(env),
    syncWaitMs: readInt(env, 'TRACKCHECK_SYNC_WAIT_MS', 25_000, 0, 600_000),
    workerConcurrency: readInt(env, 'TRACKCHECK_WORKER_CONCURRENCY', 32, 0, 1024),
    perHostConcurrency: readInt(env, 'TRACKCHECK_PER_HOST_CONCURRENCY', 4, 1, 1024),
    browserConcurrency: readInt(env, 'TRACKCHECK_BROWSER_CONCURRENCY', 4, 1, 64),
    checkDeadlineMs: readInt(env, 'TRACKCHECK_CHECK_DEADLINE_MS', 120_000, 10_000, 600_000),
    browserMemoryMb: readInt(env, 'TRACKCHECK_BROWSER_MEMORY_MB', 2048, 256, 65_536),
    jobLeaseMs: readInt(env, 'TRACKCHECK_JOB_LEASE_MS', 120_000, 1000, 3_600_000),
    scanMaxPages: readInt(env, 'TRACKCHECK_SCAN_MAX_PAGES', DEFAULT_SCAN_MAX_PAGES, 1, 1000),
    logLevel,
    oidc: readOidc(env),
    sessionSecret: readSessionSecret(env),
    sessionTtlSeconds: readInt(env, 'TRACKCHECK_SESSION_TTL_HOURS', 12, 1, 720) * 3600,
    metricsToken: readMetricsToken(env),
    smtpUrl: readSmtpUrl(env),
    alertFrom: readAlertFrom(env, publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}`),
    emailSignInDomains: readEmailSignInDomains(env),
    monitorsPerUser: readInt(env, 'TRACKCHECK_MONITORS_PER_USER', 100, 0, 1_000_000),
    monitorConfirmMs: readInt(env, 'TRACKCHECK_MONITOR_CONFIRM_MS', 180_000, 0, 86_400_000),
    alertRetryMs: readInt(env, 'TRACKCHECK_ALERT_RETRY_MS', 30_000, 1, 3_600_000),
  };
}

/** The public URL once the real port is known (PORT=0 picks a free port at listen time). */
export function withListeningPort(config: Config, port: number, env: Env): Config {
  if (readString(env, 'TRACKCHECK_PUBLIC_URL')) return { ...config, port };
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { ...config, port, publicUrl: `http://${host}:${port}` };
}
