// `trackcheck report <slug|report URL> [--evidence] [--format text|json|csv|markdown] [-o <file>] [--server <url>]`:
// a report fetched from a service, printed with the formatters of `trackcheck check`. Reading a report counts one
// view; --evidence does not.
import { parseArgs } from 'node:util';
import { toCheckResult } from './api-check-result.js';
import { printCheck } from './remote-check.js';
import { OUTPUT_OPTIONS, checkWritable, createOutput, readFormat } from './output.js';
import { UsageError, createRemoteClient, describeRemoteFailure, processIo, readToken, resolveServer, type CliIo } from './remote.js';

const USAGE = 'usage: trackcheck report <slug|report URL> [--evidence] [--format text|json|csv|markdown] [-o <file>] [--server <url>]';

/** A slug, or a report page URL (…/r/<slug>) whose origin becomes the default server. */
function parseTarget(raw: string): { slug: string; origin: string | null } {
  const match = /^(https?:\/\/[^/]+)(?:\/.*)?\/r\/([A-Za-z0-9_-]+)\/?(?:[?#].*)?$/.exec(raw);
  if (match?.[1] && match[2]) return { slug: match[2], origin: match[1] };
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(raw)) throw new UsageError(`not a report slug or report URL: "${raw}"`);
  return { slug: raw, origin: null };
}

export async function reportCommand(args: string[], env: Record<string, string | undefined>, io: CliIo = processIo()): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...OUTPUT_OPTIONS, server: { type: 'string' }, evidence: { type: 'boolean' } },
  });
  let server = '';
  try {
    if (positionals.length !== 1 || !positionals[0]) throw new UsageError(USAGE);
    if (values.evidence && values.json) throw new UsageError('--evidence and --json cannot be combined');
    const format = readFormat(values.format, values.json);
    // The evidence file is one fixed plain-text document.
    if (values.evidence && format !== 'text') throw new UsageError(`--evidence and --format ${format} cannot be combined`);
    if (values.output !== undefined) await checkWritable(values.output);
    const out = createOutput(values.output, io);
    const target = parseTarget(positionals[0]);
    const configured = resolveServer(values.server, env);
    // A pasted report URL of another service is read there, anonymously: the key is only ever sent to the
    // service the user configured.
    const elsewhere = target.origin !== null && values.server === undefined && new URL(target.origin).origin !== new URL(configured).origin;
    server = elsewhere && target.origin !== null ? target.origin : configured;
    const client = createRemoteClient(server, elsewhere ? {} : readToken(env, false), io);
    if (values.evidence) {
      out.write(await client.reports.evidence(target.slug));
      await out.finish();
      return 0;
    }
    const report = await client.reports.get(target.slug);
    const code = printCheck(report, format, out, io, 'report', { reportUrl: report.reportUrl, evidenceUrl: report.evidenceUrl });
    if (format === 'text' && toCheckResult(report) !== null) {
      out.write(`\nreport   ${report.reportUrl}   (${report.viewCount} ${report.viewCount === 1 ? 'view' : 'views'})\n`);
      out.write(`evidence ${report.evidenceUrl}   (trackcheck report ${report.slug} --evidence)\n`);
    }
    await out.finish();
    return code;
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`report: ${err.message}\n`);
      return 2;
    }
    const failure = describeRemoteFailure(err, server);
    if (failure === null) throw err;
    io.stderr.write(`report: ${failure}\n`);
    return 2;
  }
}
