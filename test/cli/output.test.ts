// -o <file> and --format for check, report and batch: the file is written whole or not at all, and the formats
// and their aliases are read one way.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkWritable, createOutput, readFormat, writeFileAtomically } from '../../src/cli/output.js';
import { UsageError } from '../../src/cli/remote.js';

describe('output files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-output-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('replaces a file through a temporary file beside it, keeping its permissions', async () => {
    const file = path.join(dir, 'results.csv');
    writeFileSync(file, 'old');
    chmodSync(file, 0o640);
    await writeFileAtomically(file, 'new,results\r\n');
    expect(readFileSync(file, 'utf8')).toBe('new,results\r\n');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(['results.csv']);
  });

  it('leaves nothing behind and the target untouched when the rename fails', async () => {
    const target = path.join(dir, 'taken');
    mkdirSync(target);
    writeFileSync(path.join(target, 'inside.txt'), 'keep');
    await expect(writeFileAtomically(target, 'x')).rejects.toThrow(UsageError);
    await expect(writeFileAtomically(target, 'x')).rejects.toThrow(/^cannot write .*taken: E[A-Z]+$/);
    expect(readdirSync(dir)).toEqual(['taken']);
    expect(readFileSync(path.join(target, 'inside.txt'), 'utf8')).toBe('keep');
  });

  it('refuses up front a directory that does not exist or a directory as the file; `-` is stdout', async () => {
    await expect(checkWritable(path.join(dir, 'missing', 'x.csv'))).rejects.toThrow(/cannot write .*missing\/x\.csv: ENOENT/);
    await expect(checkWritable(dir)).rejects.toThrow(/it is a directory/);
    await expect(checkWritable(path.join(dir, 'new.csv'))).resolves.toBeUndefined();
    await expect(checkWritable('-')).resolves.toBeUndefined();
  });

  it('writes to the file only at the end, or straight to stdout', async () => {
    let stdout = '';
    const io = { stdout: { write: (t: string) => (stdout += t) } };
    const file = path.join(dir, 'report.md');
    const out = createOutput(file, io);
    out.write('# WILL TRACK\n');
    out.write('more\n');
    expect(out.toFile).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
    await out.finish();
    expect(readFileSync(file, 'utf8')).toBe('# WILL TRACK\nmore\n');
    const dash = createOutput('-', io);
    dash.write('to stdout\n');
    await dash.finish();
    expect(dash.toFile).toBe(false);
    expect(stdout).toBe('to stdout\n');
  });
});

describe('--format', () => {
  it('defaults to text, takes --json as json, aliases, and refuses unknown names and contradictions', () => {
    expect(readFormat(undefined, undefined)).toBe('text');
    expect(readFormat(undefined, true)).toBe('json');
    expect(readFormat('markdown', undefined)).toBe('markdown');
    expect(readFormat('json', true)).toBe('json');
    expect(readFormat('table', undefined, { table: 'text' })).toBe('text');
    expect(() => readFormat('table', undefined)).toThrow('--format must be one of text, json, csv, markdown');
    expect(() => readFormat('csv', true)).toThrow('--json and --format csv cannot be combined');
    expect(() => readFormat('toString', undefined)).toThrow(UsageError);
  });
});
