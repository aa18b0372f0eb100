// `trackcheck check <url> --server <url>`: the same report, produced by a trackcheck service instead of the local
// engine (TRACKCHECK_API_KEY when set, else anonymous with the weekly allowance). Exit codes as for a local check.
import type { Check, CheckType } from '../client/index.js';
import { VERDICT_EXIT_CODES } from '../checker/analysis/verdict.js';
import { formatReport } from './report-text.js';
import { toCheckResult } from './api-check-result.js';
import { formatCheck } from './check-output.js';
import type { ReportLinks } from './report-markdown.js';
import { checkWritable, createOutput, type Output, type OutputFormat } from './output.js';
import { UsageError, createRemoteClient, describeRemoteFailure, readToken, resolveServer, type CliIo } from './remote.js';

/**
 * Writes a check the service returned in `format` and returns its exit code: the verdict's (CONTRACT.md section
 * 7; a failed check could not be verified), or 2 when it has none yet.
 */
export function printCheck(check: Check, format: OutputFormat, out: Output, io: CliIo, command: string, links: ReportLinks = {}): number {
  const result = toCheckResult(check);
  if (result === null) {
    const why = check.error ? `${check.error.code}: ${check.error.message}` : `the check is still ${check.status}; try again shortly`;
    io.stderr.write(`${command}: ${check.slug}: ${why}\n`);
  }
  if (format === 'text') {
    if (result !== null) out.write(`${formatReport(check.url, result)}\n`);
  } else {
    const text = formatCheck(format, { url: check.url, result, json: check, row: check, links: { slug: check.slug, ...links } });
    if (text !== null) out.write(text);
  }
  return exitCodeOf(check);
}

/** The verdict's exit code; 2 while there is none: unfinished, or a service older than verdicts. */
export function exitCodeOf(check: Pick<Check, 'verdict' | 'status'>): number {
  const verdict = check.status === 'completed' || check.status === 'failed' ? (check.verdict ?? null) : null;
  return verdict === null ? 2 : VERDICT_EXIT_CODES[verdict];
}

export async function remoteCheck(
  url: string,
  checkType: CheckType,
  options: { server: string | undefined; format: OutputFormat; output: string | undefined },
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<number> {
  let server = '';
  try {
    server = resolveServer(options.server, env);
    const client = createRemoteClient(server, readToken(env, false), io);
    if (options.output !== undefined) await checkWritable(options.output);
    const check = await client.checks.run({ url, check_type: checkType });
    const out = createOutput(options.output, io);
    const code = printCheck(check, options.format, out, io, 'check');
    if (options.format === 'text') out.write(`\nslug     ${check.slug}   (trackcheck report ${check.slug})\n`);
    await out.finish();
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
