// Where a command's result goes and in which form: --format (with --json as its older spelling) and
// -o/--output <file>, written atomically (a temporary file beside it, then a rename), so a reader, a cron job's
// next run or a crash never sees half a report. Progress, summaries and errors stay on stderr.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, chmod, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError, type CliIo } from './remote.js';

export const OUTPUT_FORMATS = ['text', 'json', 'csv', 'markdown'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The options every command with a result shares, for node:util parseArgs. */
export const OUTPUT_OPTIONS = {
  format: { type: 'string' },
  json: { type: 'boolean' },
  output: { type: 'string', short: 'o' },
} as const;

/**
 * --format, else `json` for --json, else `text`; `aliases` are other accepted names (`table` for batch). --json
 * with another format is a contradiction, not a preference.
 */
export function readFormat(raw: string | undefined, json: boolean | undefined, aliases: Record<string, OutputFormat> = {}): OutputFormat {
  if (raw === undefined) return json === true ? 'json' : 'text';
  const format = Object.hasOwn(aliases, raw)
    ? aliases[raw]
    : (OUTPUT_FORMATS as readonly string[]).includes(raw)
      ? (raw as OutputFormat)
      : undefined;
  if (format === undefined) throw new UsageError(`--format must be one of ${[...OUTPUT_FORMATS, ...Object.keys(aliases)].join(', ')}`);
  if (json === true && format !== 'json') throw new UsageError(`--json and --format ${raw} cannot be combined`);
  return format;
}

const reason = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

/** Refuses, before any work, an output file that could not be written at the end (no directory, a directory). */
export async function checkWritable(file: string): Promise<void> {
  if (file === '-') return;
  const target = path.resolve(file);
  const existing = await stat(target).catch(() => null);
  if (existing?.isDirectory()) throw new UsageError(`cannot write ${file}: it is a directory`);
  await access(path.dirname(target), constants.W_OK).catch((err: unknown) => {
    throw new UsageError(`cannot write ${file}: ${reason(err)}`);
  });
}

/** `text` in `file`, all or nothing: written and flushed beside it, then renamed over it (same mode if it existed). */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  const target = path.resolve(file);
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    const previous = await stat(target).catch(() => null);
    if (previous) await chmod(temp, previous.mode & 0o7777);
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw new UsageError(`cannot write ${file}: ${reason(err)}`);
  }
}

export interface Output {
  /** True when the result goes to a file (so the terminal gets a summary on stderr instead). */
  readonly toFile: boolean;
  write(text: string): void;
  /** Writes everything to stdout or, atomically, to the file. */
  finish(): Promise<void>;
}

/** `-o <file>` (`-o -` is stdout) or stdout; nothing reaches a file before `finish`. */
export function createOutput(file: string | undefined, io: Pick<CliIo, 'stdout'>): Output {
  const toFile = file !== undefined && file !== '-';
  let text = '';
  return {
    toFile,
    write(chunk) {
      if (toFile) text += chunk;
      else io.stdout.write(chunk);
    },
    async finish() {
      if (toFile && file !== undefined) await writeFileAtomically(file, text);
    },
  };
}
