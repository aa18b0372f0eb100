// Which database errors mean "the database is unreachable right now" (→ 503), as opposed to a bug (→ 500). Pure: it
// reads error codes and messages only, so the transports (app.ts, web/routes.ts) ask it without importing store/.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300', // too_many_connections
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
  'SQLITE_IOERR',
]);

const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /query read timeout/i,
  /connect ECONNREFUSED/i,
  /driver has already been destroyed/i,
];

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('SQLITE_IOERR'))) return true;
  if (err instanceof AggregateError) return err.errors.some(isDatabaseUnavailable);
  return UNAVAILABLE_MESSAGES.some((re) => re.test(err.message));
}
