// `trackcheck batch <file|->`: checks a list of links through a trackcheck service (--server, TRACKCHECK_SERVER,
// default http://127.0.0.1:3000, with TRACKCHECK_API_KEY), 500 links per batch, and prints one result per link
// (or writes them, -o <file>). A CSV's other columns travel with each link to the results.
// Exit codes: 0 every link will track, 1 at least one will not (or failed), 2 bad input or the service refused.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { TrackcheckApiError, defaultSleep, type Batch, type CheckType, type TrackcheckClient } from '../client/index.js';
import { cleanBatchName, MAX_BATCH_NAME_LENGTH, MAX_BATCH_URLS } from '../services/batches.js';
import { checkInputColumns, parseBatchInput, type InputLink, type ParsedInput } from './batch-input.js';
import { formatResults, summarize, toLinkResult, type LinkResult } from './batch-output.js';
import { parseCsv } from '../lib/csv.js';
import { inInputTerms } from '../lib/link-list.js';
import { createProgress, type Progress } from './progress.js';
import { OUTPUT_OPTIONS, checkWritable, createOutput, readFormat, type OutputFormat } from './output.js';
import {
  UsageError,
  createRemoteClient,
  describeRemoteFailure,
  processIo,
  readAll,
  readToken,
  resolveServer,
  type CliIo,
} from './remote.js';

const USAGE =
  'usage: trackcheck batch <file|-> [--name <text>] [--format text|json|csv|markdown] [-o <file>] [--column <name>] ' +
  '[--type link|cmp] [--server <url>] [--interval <ms>] [--no-progress]';

interface Submitted {
  batch: Batch;
  links: InputLink[];
}

/** A batch the service refused, with the links it held (to turn "urls[3]" into a line of the input). */
class ChunkRefused extends Error {
  constructor(
    readonly error: unknown,
    readonly links: InputLink[],
  ) {
    super('batch refused');
  }
}

interface BatchArgs {
  source: string;
  format: OutputFormat;
  output: string | undefined;
  checkType: CheckType;
  column: string | undefined;
  intervalMs: number;
  server: string | undefined;
  name: string | undefined;
  progress: boolean;
}

function readName(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const name = cleanBatchName(raw);
  if (name === null) throw new UsageError(`--name must be 1 to ${MAX_BATCH_NAME_LENGTH} characters on one line`);
  return name;
}

function readArgs(args: string[]): BatchArgs {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...OUTPUT_OPTIONS,
      column: { type: 'string' },
      type: { type: 'string', default: 'link' },
      server: { type: 'string' },
      interval: { type: 'string', default: '2000' },
      name: { type: 'string' },
      'no-progress': { type: 'boolean' },
    },
  });
  const source = positionals[0];
  if (source === undefined || positionals.length > 1) throw new UsageError(USAGE);
  // `table` was the text format's name before there were others; scripts still pass it.
  const format = readFormat(values.format, values.json, { table: 'text' });
  if (values.type !== 'link' && values.type !== 'cmp') throw new UsageError('--type must be link or cmp');
  const intervalMs = Number(values.interval);
  if (!Number.isInteger(intervalMs) || intervalMs < 0) throw new UsageError('--interval must be a whole number of milliseconds');
  return {
    source,
    format,
    output: values.output,
    checkType: values.type,
    column: values.column,
    intervalMs,
    server: values.server,
    name: readName(values.name),
    progress: values['no-progress'] !== true,
  };
}

function chunk<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}

/** The name of the i-th of n batches: the name itself, or "name (2/3)" when the links take several batches. */
function chunkName(name: string | undefined, i: number, n: number): string | undefined {
  if (name === undefined || n === 1) return name;
  const suffix = ` (${i + 1}/${n})`;
  return `${name.slice(0, MAX_BATCH_NAME_LENGTH - suffix.length).trimEnd()}${suffix}`;
}

/** Submits every chunk (waiting while the service's 3-unfinished-batches limit holds) and polls to the end. */
async function runBatches(
  client: TrackcheckClient,
  chunks: InputLink[][],
  columns: string[],
  a: BatchArgs,
  progress: Progress,
  io: CliIo,
  submitted: Submitted[],
): Promise<void> {
  const sleep = io.sleep ?? defaultSleep;
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const state = () => ({
    total,
    submitted: submitted.reduce((n, s) => n + s.links.length, 0),
    done: submitted.reduce((n, s) => n + s.batch.completed + s.batch.failed, 0),
    note: waiting ? 'waiting for a batch slot' : undefined,
  });
  let next = 0;
  let waiting = false;
  let turn = 0;
  for (;;) {
    for (const links of chunks.slice(next)) {
      try {
        const name = chunkName(a.name, next, chunks.length);
        const batch = await client.batches.create({
          urls: links.map((l) => l.url),
          check_type: a.checkType,
          ...(name === undefined ? {} : { name }),
          ...(columns.length === 0 ? {} : { columns, values: links.map((l) => l.values) }),
        });
        submitted.push({ batch, links });
        progress.log(`batch ${batch.id}: ${links.length} ${links.length === 1 ? 'link' : 'links'} submitted`);
        next++;
        waiting = false;
      } catch (err) {
        if (!(err instanceof TrackcheckApiError && err.code === 'too_many_batches')) throw new ChunkRefused(err, links);
        waiting = true;
        break;
      }
    }
    progress.update(state());
    const open = submitted.filter((s) => s.batch.status !== 'completed');
    if (next >= chunks.length && open.length === 0) return;
    await sleep(a.intervalMs);
    // One request per tick, round robin: three open batches polled at once would eat the per-minute limit.
    const polled = open[turn++ % Math.max(1, open.length)];
    if (polled) polled.batch = await client.batches.get(polled.batch.id);
  }
}

async function collectResults(client: TrackcheckClient, submitted: Submitted[], columns: string[]): Promise<LinkResult[]> {
  const results: LinkResult[] = [];
  for (const { batch, links } of submitted) {
    const [header, ...rows] = parseCsv(await client.batches.resultsCsv(batch.id));
    const bySlug = new Map(rows.map((r) => [r.fields[header?.fields.indexOf('slug') ?? 1] ?? '', r]));
    links.forEach((link, i) => {
      const record = bySlug.get(batch.checks[i]?.slug ?? '');
      if (record === undefined || header === undefined) throw new Error(`batch ${batch.id}: no result row for link ${i}`);
      const fields = Object.fromEntries(columns.map((column, j) => [column, link.values[j] ?? '']));
      results.push(toLinkResult(record, header.fields, { ...link, fields }));
    });
  }
  return results;
}

/** The service's "urls[3]: …" (or "values[3]") points into one chunk; the user wants the line of their file. */
function withLines(message: string, links: InputLink[] | undefined): string {
  if (links === undefined) return message;
  return inInputTerms(message, (i) => (links[i] ? `line ${links[i].line}` : undefined), []);
}

export async function batchCommand(args: string[], env: Record<string, string | undefined>, io: CliIo = processIo()): Promise<number> {
  let server = '';
  const submitted: Submitted[] = [];
  try {
    const a = readArgs(args);
    server = resolveServer(a.server, env);
    const token = readToken(env, true);
    const text = await (a.source === '-' ? readAll(io.stdin) : readFile(a.source, 'utf8')).catch((err: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot read ${a.source}: ${err.code ?? err.message}`);
    });
    const input: ParsedInput = parseBatchInput(text, { column: a.column, csv: /\.csv$/i.test(a.source) });
    checkInputColumns(input, MAX_BATCH_URLS);
    // Found out now, not after the batches ran.
    if (a.output !== undefined) await checkWritable(a.output);
    const client = createRemoteClient(server, token, io);
    // --no-progress: as quiet as a pipe (no bar, no "submitted" lines), also on a terminal.
    const progress = createProgress(a.progress ? io.stderr : { write: () => undefined, isTTY: false });
    try {
      await runBatches(client, chunk(input.links, MAX_BATCH_URLS), input.columns, a, progress, io, submitted);
    } finally {
      progress.finish();
    }
    const results = await collectResults(client, submitted, input.columns);
    const out = createOutput(a.output, io);
    out.write(formatResults(results, a.format, input.columns));
    await out.finish();
    // The summary goes to the terminal when the results went elsewhere (a file, or a format for programs).
    if (out.toFile || (a.format !== 'text' && io.stderr.isTTY === true)) io.stderr.write(`${summarize(results)}\n`);
    return results.every((r) => r.willTrack === true) ? 0 : 1;
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`batch: ${err.message}\n`);
    } else {
      const cause = err instanceof ChunkRefused ? err.error : err;
      const failure = describeRemoteFailure(cause, server);
      if (failure === null) throw cause;
      io.stderr.write(`batch: ${withLines(failure, err instanceof ChunkRefused ? err.links : undefined)}\n`);
    }
    // Their results stay on the service (GET /v1/batches/<id>/results.csv), e.g. when the output file failed.
    if (submitted.length > 0)
      io.stderr.write(`batch: already submitted (they still run): ${submitted.map((s) => s.batch.id).join(', ')}\n`);
    return 2;
  }
}
