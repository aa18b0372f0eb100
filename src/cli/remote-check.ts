// `trackcheck check <url> --server <url>`: the same report, produced by a trackcheck service instead of the local
// engine (TRACKCHECK_API_KEY when set, else anonymous with the weekly allowance). Exit codes as for a local check.
import type { Check, CheckType } from '../client/index.js';
import { VERDICT_EXIT_CODES } from '../checker/verdict.js';
import { formatReport } from './report-text.js';
import { toCheckResult } from './api-check-result.js';
import { UsageError, createRemoteClient, describeRemoteFailure, readToken, resolveServer, type CliIo } from './remote.js';

/**
 * Exit code and text for a check the service returned: the verdict's code (CONTRACT.md section 7; a failed check
 * could not be verified), or 2 when it has none yet.
 */
export function printCheck(check: Check, json: boolean, io: CliIo, command: string): number {
  const result = toCheckResult(check);
  if (json) io.stdout.write(`${JSON.stringify(check, null, 2)}\n`);
  if (result === null) {
    const why = check.error ? `${check.error.code}: ${check.error.message}` : `the check is still ${check.status}; try again shortly`;
    io.stderr.write(`${command}: ${check.slug}: ${why}\n`);
  } else if (!json) {
    io.stdout.write(`${formatReport(check.url, result)}\n`);
  }
  return exitCodeOf(check);
}

/** The verdict's exit code; 2 while there is none (a service older than verdicts sends none either). */
export function exitCodeOf(check: Pick<Check, 'verdict'>): number {
  const verdict = check.verdict ?? null;
  return verdict === null ? 2 : VERDICT_EXIT_CODES[verdict];
}

export async function remoteCheck(
  url: string,
  checkType: CheckType,
  options: { server: string | undefined; json: boolean },
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<number> {
  let server = '';
  try {
    server = resolveServer(options.server, env);
    const client = createRemoteClient(server, readToken(env, false), io);
    const check = await client.checks.run({ url, check_type: checkType });
    const code = printCheck(check, options.json, io, 'check');
    if (!options.json) io.stdout.write(`\nslug     ${check.slug}   (trackcheck report ${check.slug})\n`);
    return code;
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`check: ${err.message}\n`);
      return 2;
    }
    const failure = describeRemoteFailure(err, server);
    if (failure === null) throw err;
    io.stderr.write(`check: ${failure}\n`);
    return 2;
  }
}
