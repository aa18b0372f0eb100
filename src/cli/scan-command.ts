// `trackcheck scan <page-or-sitemap-url>`: asks a trackcheck service (--server, TRACKCHECK_SERVER, default
// http://127.0.0.1:3000, with TRACKCHECK_API_KEY) to find and check the affiliate links of a page (or of a
// sitemap's pages), shows progress, and prints one result per link in the formats of `trackcheck batch`.
// Exit codes as `trackcheck batch`: 0 every link will track, 1 at least one will not (or failed), 2 bad input,
// the service refused, or no page could be read.
import { parseArgs } from 'node:util';
import { defaultSleep, type CheckType, type Scan } from '../client/index.js';
import { formatResults, summarize, toLinkResult, type LinkResult } from './batch-output.js';
import { parseCsv } from '../lib/csv.js';
import { createProgress } from './progress.js';
import { OUTPUT_OPTIONS, checkWritable, createOutput, readFormat, type OutputFormat } from './output.js';
import { UsageError, createRemoteClient, describeRemoteFailure, processIo, readToken, resolveServer, type CliIo } from './remote.js';

const USAGE =
  'usage: trackcheck scan <page-or-sitemap-url> [--render] [--format text|json|csv|markdown] [-o <file>] ' +
  '[--type link|cmp] [--server <url>] [--interval <ms>] [--no-progress]';

/** The columns a scan adds to each link's result: where it was found and what it says. */
const SCAN_COLUMNS = ['page', 'text'];

interface ScanArgs {
  url: string;
  render: boolean;
  format: OutputFormat;
  output: string | undefined;
  checkType: CheckType;
  intervalMs: number;
  server: string | undefined;
  progress: boolean;
}

function readArgs(args: string[]): ScanArgs {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...OUTPUT_OPTIONS,
      render: { type: 'boolean' },
      type: { type: 'string', default: 'link' },
      server: { type: 'string' },
      interval: { type: 'string', default: '2000' },
      'no-progress': { type: 'boolean' },
    },
  });
  const url = positionals[0];
  if (url === undefined || positionals.length > 1) throw new UsageError(USAGE);
  if (values.type !== 'link' && values.type !== 'cmp') throw new UsageError('--type must be link or cmp');
  const intervalMs = Number(values.interval);
  if (!Number.isInteger(intervalMs) || intervalMs < 0) throw new UsageError('--interval must be a whole number of milliseconds');
  return {
    url,
    render: values.render === true,
    format: readFormat(values.format, values.json),
    output: values.output,
    checkType: values.type,
    intervalMs,
    server: values.server,
    progress: values['no-progress'] !== true,
  };
}

/** The scan's links with their results (from results.csv), verdicts from the scan itself, in page order. */
function linkResults(scan: Scan, csv: string): LinkResult[] {
  const [header, ...rows] = parseCsv(csv);
  const slugAt = header?.fields.indexOf('slug') ?? -1;
  const bySlug = new Map(rows.map((r) => [r.fields[slugAt] ?? '', r]));
  return scan.links.map((link, i) => {
    const record = bySlug.get(link.slug);
    if (record === undefined || header === undefined) throw new Error(`scan ${scan.id}: no result row for ${link.url}`);
    const result = toLinkResult(record, header.fields, { url: link.url, line: i + 1, fields: { page: link.page, text: link.text } });
    return { ...result, verdict: link.verdict };
  });
}

export async function scanCommand(args: string[], env: Record<string, string | undefined>, io: CliIo = processIo()): Promise<number> {
  let server = '';
  let scanId: string | null = null;
  try {
    const a = readArgs(args);
    server = resolveServer(a.server, env);
    const token = readToken(env, true);
    if (a.output !== undefined) await checkWritable(a.output);
    const client = createRemoteClient(server, token, io);
    const progress = createProgress(a.progress ? io.stderr : { write: () => undefined, isTTY: false });
    let scan: Scan;
    try {
      scan = await client.scans.create({ url: a.url, render: a.render, check_type: a.checkType });
      scanId = scan.id;
      progress.log(`scan ${scan.id}: ${a.url} submitted`);
      const sleep = io.sleep ?? defaultSleep;
      while (scan.status === 'queued' || scan.status === 'running') {
        const note =
          scan.status === 'queued'
            ? 'reading the page'
            : `${scan.pagesScanned} ${scan.pagesScanned === 1 ? 'page' : 'pages'}, ${scan.linksFound} links found`;
        progress.update({ done: scan.completed + scan.failed, total: scan.total, submitted: scan.total, note });
        await sleep(a.intervalMs);
        scan = await client.scans.get(scan.id);
      }
    } finally {
      progress.finish();
    }
    if (scan.status === 'failed') {
      io.stderr.write(`scan: ${scan.error?.message ?? 'no page could be read'} (${scan.error?.code ?? 'failed'})\n`);
      return 2;
    }
    const results = linkResults(scan, await client.scans.resultsCsv(scan.id));
    const out = createOutput(a.output, io);
    out.write(formatResults(results, a.format, SCAN_COLUMNS));
    await out.finish();
    const found = `${scan.pagesScanned} ${scan.pagesScanned === 1 ? 'page' : 'pages'} scanned, ${scan.linksFound} links found, ${scan.total} affiliate links checked`;
    if (out.toFile || (a.format !== 'text' && io.stderr.isTTY === true)) io.stderr.write(`${summarize(results)}\n`);
    io.stderr.write(`${found}\n`);
    for (const finding of scan.findings) io.stderr.write(`note (${finding.code}): ${finding.title} on ${finding.page}\n`);
    return results.every((r) => r.willTrack === true) ? 0 : 1;
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`scan: ${err.message}\n`);
    } else {
      const failure = describeRemoteFailure(err, server);
      if (failure === null) throw err;
      io.stderr.write(`scan: ${failure}\n`);
    }
    if (scanId !== null) io.stderr.write(`scan: already submitted (it still runs): ${scanId}\n`);
    return 2;
  }
}
