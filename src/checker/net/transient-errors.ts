// Failures worth one more try (CONTRACT.md section 7): the host was reached or looked up, but did not answer in
// time or dropped the connection. Both modes word hop errors the same way (http-client.ts describeRequestError,
// browser/net-errors.ts), so the words decide. DNS failures, refused connections and TLS failures are answers:
// they stay `landing_unreachable`.
const TRANSIENT = new Set([
  'connection reset',
  'connection closed before a complete response',
  'connection timed out',
  'response timed out',
  'timed out',
  'check aborted',
]);

export function isTransientError(error: string | null | undefined): boolean {
  if (error === null || error === undefined) return false;
  return TRANSIENT.has(error) || /^(check )?timed out after /.test(error);
}
