// `trackcheck check <url> [--json]`: runs the engine directly, no server or database.
// Exit codes (CONTRACT.md section 7): 0 will track, 1 will not track, 3 could not verify or no tracking found,
// 2 bad input, a missing browser or an unreachable server.
// With --server <url> (or TRACKCHECK_SERVER) the check runs on that trackcheck service instead (remote-check.ts).
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { checkSubmittedUrl } from '../checker/net-guard.js';
import { CheckerUnavailable, runCheck, type CheckType } from '../checker/check.js';
import { decideVerdict, VERDICT_EXIT_CODES } from '../checker/verdict.js';
import { createBrowserPool } from '../checker/browser/pool.js';
import { browserPoolSettings, chainSettings } from '../engine-settings.js';
import { closePageReaders } from '../checker/page-reader.js';
import { formatReport } from './report-text.js';
import { remoteCheck } from './remote-check.js';
import { processIo, wantsServer } from './remote.js';

export async function checkCommand(args: string[], env: Record<string, string | undefined>): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, type: { type: 'string' }, server: { type: 'string' }, local: { type: 'boolean' } },
  });
  const url = positionals[0];
  if (!url || positionals.length > 1) {
    console.error('usage: trackcheck check <url> [--json] [--type link|cmp] [--server <url> | --local]');
    return 2;
  }
  const checkType = (values.type ?? 'link') as CheckType;
  if (checkType !== 'link' && checkType !== 'cmp') {
    console.error('check: --type must be link or cmp');
    return 2;
  }
  if (!values.local && wantsServer(values.server, env)) return remoteCheck(url, checkType, { server: values.server, json: values.json === true }, env, processIo());
  const config = loadConfig(env);
  const submitted = checkSubmittedUrl(url, config.resolve);
  if (!submitted.ok) {
    console.error(`check: ${submitted.code}: ${submitted.message}`);
    return 2;
  }
  // Launched only if the check needs it (cmp, or a link chain that navigates by script).
  const browser = createBrowserPool(browserPoolSettings(config));
  try {
    const result = await runCheck(url, { ...chainSettings(config), checkType, browser });
    console.log(values.json ? JSON.stringify({ url, checkType, ...result }, null, 2) : formatReport(url, result));
    return VERDICT_EXIT_CODES[decideVerdict(result)];
  } catch (err) {
    if (!(err instanceof CheckerUnavailable)) throw err;
    console.error(`check: ${err.code}: ${err.message}`);
    // No Chromium here is this machine's configuration; anything else is a check that ran and could not verify.
    return err.code === 'browser_unavailable' ? 2 : VERDICT_EXIT_CODES.could_not_verify;
  } finally {
    await browser.close();
    await closePageReaders();
  }
}
