// `trackcheck check <url> [--format text|json|csv|markdown] [-o <file>]`: runs the engine directly, no server or
// database. Exit codes (CONTRACT.md section 7): 0 will track, 1 will not track, 3 could not verify or no tracking
// found, 2 bad input, a missing browser, an unreachable server or an output file that cannot be written.
// With --server <url> (or TRACKCHECK_SERVER) the check runs on that trackcheck service instead (remote-check.ts).
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { checkSubmittedUrl } from '../checker/net/net-guard.js';
import { CheckerUnavailable, runCheck, type CheckType } from '../checker/check.js';
import { decideVerdict, VERDICT_EXIT_CODES } from '../checker/analysis/verdict.js';
import { createBrowserPool } from '../checker/browser/pool.js';
import { browserPoolSettings, chainSettings } from '../engine-settings.js';
import { closePageReaders } from '../checker/follow/page-reader.js';
import { formatReport } from './report-text.js';
import { remoteCheck } from './remote-check.js';
import { formatCheck } from './check-output.js';
import { OUTPUT_OPTIONS, checkWritable, createOutput, readFormat, type OutputFormat } from './output.js';
import { UsageError, processIo, wantsServer, type CliIo } from './remote.js';

const USAGE = 'usage: trackcheck check <url> [--format text|json|csv|markdown] [-o <file>] [--type link|cmp] [--server <url> | --local]';

interface CheckArgs {
  url: string;
  checkType: CheckType;
  format: OutputFormat;
  output: string | undefined;
  server: string | undefined;
  local: boolean;
}

function readArgs(args: string[]): CheckArgs {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...OUTPUT_OPTIONS, type: { type: 'string' }, server: { type: 'string' }, local: { type: 'boolean' } },
  });
  const url = positionals[0];
  if (!url || positionals.length > 1) throw new UsageError(USAGE);
  const checkType = values.type ?? 'link';
  if (checkType !== 'link' && checkType !== 'cmp') throw new UsageError('--type must be link or cmp');
  const format = readFormat(values.format, values.json);
  return { url, checkType, format, output: values.output, server: values.server, local: values.local === true };
}

async function localCheck(a: CheckArgs, env: Record<string, string | undefined>, io: CliIo): Promise<number> {
  const config = loadConfig(env);
  const submitted = checkSubmittedUrl(a.url, config.resolve);
  if (!submitted.ok) throw new UsageError(`${submitted.code}: ${submitted.message}`);
  if (a.output !== undefined) await checkWritable(a.output);
  // Launched only if the check needs it (cmp, or a link chain that navigates by script).
  const browser = createBrowserPool(browserPoolSettings(config));
  try {
    const result = await runCheck(a.url, { ...chainSettings(config), checkType: a.checkType, browser });
    const verdict = decideVerdict(result);
    const out = createOutput(a.output, io);
    const text =
      a.format === 'text'
        ? `${formatReport(a.url, result)}\n`
        : formatCheck(a.format, {
            url: a.url,
            result,
            json: { url: a.url, checkType: a.checkType, ...result },
            row: { ...result, url: a.url, slug: '', status: 'completed', verdict },
          });
    out.write(text ?? '');
    await out.finish();
    return VERDICT_EXIT_CODES[verdict];
  } catch (err) {
    if (!(err instanceof CheckerUnavailable)) throw err;
    io.stderr.write(`check: ${err.code}: ${err.message}\n`);
    // No Chromium here is this machine's configuration; anything else is a check that ran and could not verify.
    return err.code === 'browser_unavailable' ? 2 : VERDICT_EXIT_CODES.could_not_verify;
  } finally {
    await browser.close();
    await closePageReaders();
  }
}

export async function checkCommand(args: string[], env: Record<string, string | undefined>, io: CliIo = processIo()): Promise<number> {
  try {
    const a = readArgs(args);
    if (!a.local && wantsServer(a.server, env))
      return await remoteCheck(a.url, a.checkType, { server: a.server, format: a.format, output: a.output }, env, io);
    return await localCheck(a, env, io);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`check: ${err.message}\n`);
    return 2;
  }
}
