// `trackcheck batch` against a running service and the link simulator: input formats (lines, CSV with quotes and
// a BOM, stdin), output formats, chunks of 500, the unfinished-batch limit, progress on a TTY only, exit codes.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchCommand } from '../../src/cli/batch-command.js';
import { parseCsv } from '../../src/lib/csv.js';
import type { LinkResult } from '../../src/cli/batch-output.js';
import { TrackcheckClient } from '../../src/index.js';
import { CLI, runCli } from '../helpers/spawn-service.js';
import { refusedUrl } from '../client/running-service.js';
import { fakeIo, startLinkService, type LinkService } from '../client/link-service.js';

const exec = promisify(execFile);
const FAST = ['--interval', '20'];

describe('trackcheck batch', () => {
  let s: LinkService;
  let dir: string;
  let dead: string;
  const file = (name: string, text: string) => {
    const p = path.join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const batchCount = async () => (await new TrackcheckClient({ baseUrl: s.t.url, apiKey: s.key }).batches.list({ limit: 100 })).data.length;

  beforeAll(async () => {
    s = await startLinkService();
    dead = await refusedUrl();
    dir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-batch-'));
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checks a file of links (one per line, comments and blanks skipped) and prints a table; exit 0 when all track', async () => {
    const list = file('links.txt', `# spring\n${s.links.good(1)}\n\n${s.links.good(2)}\r\n  ${s.links.good(3)}  \n`);
    const f = fakeIo();
    const code = await batchCommand([list, ...FAST], s.env, f.io);
    expect(f.stderr()).toBe('');
    expect(code).toBe(0);
    const lines = f.stdout().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^VERDICT\s+SCORE\s+NETWORK\s+SLUG\s+CRITICAL ISSUES\s+URL$/);
    expect(lines.slice(1, 4).every((l) => /^WILL TRACK\s+\d+\s+Awin\s+\S{10,}\s+-\s+https:\/\/www\.awin1\.com/.test(l))).toBe(true);
    expect(lines.at(-1)).toBe('3 links: 3 will track, 0 will not track, 0 failed');
  });

  it('reads a CSV with a BOM and quoted fields from stdin and prints JSON; exit 1 when a link will not track', async () => {
    const csv = `\uFEFFcampaign,url,note\r\n"Spring, shoes","${s.links.good(4)}",""\r\nSale,${s.links.stripped},"says ""50% off"""\r\n# paused\r\nOld,${s.links.broken},"multi\nline"\r\n,,\r\n`;
    const f = fakeIo({ stdin: csv });
    const code = await batchCommand(['-', '--format', 'json', ...FAST], s.env, f.io);
    expect(f.stderr()).toBe('');
    expect(code).toBe(1);
    const results = JSON.parse(f.stdout()) as LinkResult[];
    expect(results.map((r) => [r.line, r.url, r.willTrack])).toEqual([
      [2, s.links.good(4), true],
      [3, s.links.stripped, false],
      [5, s.links.broken, false],
    ]);
    expect(results[1]).toMatchObject({ status: 'completed', network: 'Awin', criticalIssues: ['tracking_parameter_stripped'] });
    expect(results[2]).toMatchObject({ finalStatus: 404, criticalIssues: ['landing_error_status'] });
  });

  it('prints CSV with the columns of results.csv and then the input’s own, in input order; --column picks another column', async () => {
    const csv = file('links.csv', `name;Tracking Link\nA;${s.links.broken}\nB;${s.links.good(5)}\n`);
    const f = fakeIo();
    const code = await batchCommand([csv, '--format', 'csv', '--column', 'tracking link', ...FAST], s.env, f.io);
    expect(code).toBe(1);
    const [header, ...rows] = parseCsv(f.stdout());
    expect(header?.fields).toEqual([
      'url',
      'slug',
      'status',
      'verdict',
      'willTrack',
      'healthScore',
      'network',
      'finalUrl',
      'finalStatus',
      'redirectCount',
      'criticalIssues',
      'name',
    ]);
    expect(rows.map((r) => [r.fields[0], r.fields[3], r.fields[4], r.fields[11]])).toEqual([
      [s.links.broken, 'will_not_track', 'false', 'A'],
      [s.links.good(5), 'will_track', 'true', 'B'],
    ]);
    expect(f.stdout()).toMatch(/\r\n$/);
  });

  it('draws a progress bar on a TTY (stderr), stdout stays clean', async () => {
    const f = fakeIo({ isTTY: true });
    const code = await batchCommand([file('tty.txt', `${s.links.good(6)}\n${s.links.good(7)}\n`), ...FAST], s.env, f.io);
    expect(code).toBe(0);
    expect(f.stderr()).toMatch(/batch [0-9a-f-]{36}: 2 links submitted\n/);
    expect(f.stderr()).toContain('\r\x1b[2K');
    expect(f.stderr()).toContain('2/2 checked 100%');
    expect(f.stderr()).toMatch(/\n$/);
    expect(f.stdout()).not.toContain('\x1b');
    expect(f.stdout()).not.toContain('checked');
  });

  it('submits 500 links per batch, in input order', async () => {
    const links = Array.from({ length: 501 }, (_, i) => s.links.good(1000 + i));
    const before = await batchCount();
    const f = fakeIo({ isTTY: true });
    const code = await batchCommand([file('big.txt', links.join('\n')), '--format', 'json', ...FAST], s.env, f.io);
    expect(code).toBe(0);
    const results = JSON.parse(f.stdout()) as LinkResult[];
    expect(results.map((r) => r.url)).toEqual(links);
    expect(results.every((r) => r.willTrack === true)).toBe(true);
    expect(await batchCount()).toBe(before + 2);
    expect(f.stderr().match(/ submitted/g)).toHaveLength(2);
    expect(f.stderr()).toMatch(/: 500 links submitted[\s\S]*: 1 link submitted/);
    expect(f.stderr()).toContain('501/501 checked 100%');
  }, 120_000);

  it('waits for a batch slot when the service answers 409 too_many_batches', async () => {
    let refusals = 1;
    const posts: number[] = [];
    const f = fakeIo({
      isTTY: true,
      fetch: async (input, init) => {
        if (init.method === 'POST') posts.push(Date.now());
        if (init.method === 'POST' && refusals-- > 0) {
          const error = {
            type: 'invalid_request_error',
            code: 'too_many_batches',
            message: 'You already have 3 unfinished batches.',
            request_id: 'req_test',
          };
          return Response.json({ error }, { status: 409 });
        }
        return fetch(input, init);
      },
    });
    const code = await batchCommand([file('slot.txt', `${s.links.good(8)}\n`), ...FAST], s.env, f.io);
    expect(code).toBe(0);
    expect(posts).toHaveLength(2);
    expect(f.stderr()).toContain('waiting for a batch slot');
  });

  it('names the batch (--name) and sends the CSV’s other columns: the service’s results.csv and the CLI’s outputs carry them', async () => {
    const csv = `campaign,url,Status\n"Spring, shoes",${s.links.good(20)},live\nSale,${s.links.stripped},=off\n`;
    const f = fakeIo({ stdin: csv });
    const code = await batchCommand(['-', '--name', ' Spring run ', '--format', 'json', ...FAST], s.env, f.io);
    expect(f.stderr()).toBe('');
    expect(code).toBe(1);
    const results = JSON.parse(f.stdout()) as LinkResult[];
    expect(results.map((r) => [r.verdict, r.fields])).toEqual([
      ['will_track', { campaign: 'Spring, shoes', Status: 'live' }],
      ['will_not_track', { campaign: 'Sale', Status: '=off' }],
    ]);
    const client = new TrackcheckClient({ baseUrl: s.t.url, apiKey: s.key });
    // The service's clock stands still: find the batch by its first check rather than by time.
    const batch = (await client.batches.list({ limit: 100 })).data.find((b) => b.checks[0]?.slug === results[0]?.slug);
    expect(batch).toMatchObject({ name: 'Spring run', summary: { willTrack: 1, wontTrack: 1, couldNotVerify: 0, noTrackingFound: 0 } });
    expect(batch?.checks.map((c) => c.verdict)).toEqual(['will_track', 'will_not_track']);
    const [header, ...rows] = parseCsv(await client.batches.resultsCsv(batch?.id ?? ''));
    expect(header?.fields.slice(11)).toEqual(['campaign', 'input_Status']);
    expect(rows.map((r) => r.fields.slice(11))).toEqual([
      ['Spring, shoes', 'live'],
      ['Sale', "'=off"],
    ]);
  });

  it('refuses input columns the service would refuse, by line, before submitting anything', async () => {
    const before = await batchCount();
    const f = fakeIo({ stdin: `url,notes\n${s.links.good(21)},ok\n${s.links.good(22)},${'x'.repeat(1001)}\n` });
    expect(await batchCommand(['-', ...FAST], s.env, f.io)).toBe(2);
    expect(f.stderr()).toBe('batch: line 3, column "notes": a cell may be at most 1000 characters. Nothing submitted.\n');
    expect(await batchCount()).toBe(before);
  });

  it('--format markdown: a table; --format table still means text', async () => {
    const links = `${s.links.good(23)}\n${s.links.broken}\n`;
    const md = fakeIo({ stdin: links });
    expect(await batchCommand(['-', '--format', 'markdown', ...FAST], s.env, md.io)).toBe(1);
    const lines = md.stdout().split('\n');
    expect(lines[0]).toBe('**1 of 2 links will track**');
    expect(lines[2]).toBe('| Line | Verdict | Score | Network | Critical issues | URL | Slug |');
    expect(lines[4]).toMatch(/^\| 1 \| \*\*Will track\*\* \| \d+ \| Awin \| {2}\| `https:\/\/www\.awin1\.com/);
    expect(lines[5]).toMatch(/^\| 2 \| \*\*Will not track\*\* \| \d+ \| {2}\| `landing_error_status` \|/);
    const table = fakeIo({ stdin: links });
    expect(await batchCommand(['-', '--format', 'table', ...FAST], s.env, table.io)).toBe(1);
    expect(table.stdout()).toMatch(/^VERDICT\s+SCORE/);
  });

  it('-o writes the results to a file, whole (replacing it), with the summary on stderr; --no-progress silences the bar', async () => {
    const out = path.join(dir, 'out', 'results.csv');
    mkdirSync(path.dirname(out));
    writeFileSync(out, 'old results\n');
    const f = fakeIo({ isTTY: true, stdin: `${s.links.good(24)}\n${s.links.good(25)}\n` });
    const code = await batchCommand(['-', '--format', 'csv', '-o', out, '--no-progress', ...FAST], s.env, f.io);
    expect(code).toBe(0);
    expect(f.stdout()).toBe('');
    expect(f.stderr()).toBe('2 links: 2 will track, 0 will not track, 0 failed\n');
    const written = readFileSync(out, 'utf8');
    expect(written.split('\r\n')[0]).toMatch(/^url,slug,status,verdict,/);
    expect(
      parseCsv(written)
        .slice(1)
        .map((r) => r.fields[0]),
    ).toEqual([s.links.good(24), s.links.good(25)]);
    expect(readdirSync(path.dirname(out))).toEqual(['results.csv']);
    // Text to a file: the table in the file, the summary on stderr, even on a pipe.
    const text = fakeIo({ stdin: `${s.links.good(26)}\n` });
    expect(await batchCommand(['-', '--output', out, ...FAST], s.env, text.io)).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^VERDICT[\s\S]*\n1 link: 1 will track, 0 will not track, 0 failed\n$/);
    expect(text.stderr()).toBe('1 link: 1 will track, 0 will not track, 0 failed\n');
  });

  it('-o into a directory that does not exist stops before anything is submitted', async () => {
    const before = await batchCount();
    const f = fakeIo({ stdin: `${s.links.good(27)}\n` });
    expect(await batchCommand(['-', '-o', path.join(dir, 'nowhere', 'out.csv'), ...FAST], s.env, f.io)).toBe(2);
    expect(f.stderr()).toMatch(/^batch: cannot write .*nowhere\/out\.csv: ENOENT\n$/);
    expect(await batchCount()).toBe(before);
  });

  describe('exit 2 on bad input or a refusal, nothing submitted', () => {
    it('refuses invalid links by line number before submitting anything', async () => {
      const before = await batchCount();
      const f = fakeIo();
      const code = await batchCommand([file('bad.txt', `${s.links.good(9)}\n\nhttps//typo.example/x\n`)], s.env, f.io);
      expect(code).toBe(2);
      expect(f.stderr()).toBe('batch: 1 invalid link, nothing submitted:\nline 3: not a URL: "https//typo.example/x"\n');
      expect(f.stdout()).toBe('');
      expect(await batchCount()).toBe(before);
    });

    it("maps the service's urls[i] refusal to the input's line", async () => {
      const f = fakeIo();
      const code = await batchCommand([file('private.txt', `# comment\n${s.links.good(10)}\nhttp://10.0.0.1/admin\n`)], s.env, f.io);
      expect(code).toBe(2);
      expect(f.stderr()).toMatch(/^batch: url_not_allowed: line 3: .* \[req_\w+\]\n$/);
    });

    it('needs an API key, a readable file, known flags and a reachable server', async () => {
      const cases: [string[], Record<string, string>, RegExp][] = [
        [['x.txt'], { TRACKCHECK_SERVER: s.t.url }, /TRACKCHECK_API_KEY is not set/],
        [[path.join(dir, 'missing.txt')], s.env, /cannot read .*missing\.txt: ENOENT/],
        [['-', '--format', 'xml'], s.env, /--format must be one of text, json, csv, markdown, table/],
        [['-', '--json', '--format', 'csv'], s.env, /--json and --format csv cannot be combined/],
        [['-', '--name', '  '], s.env, /--name must be 1 to 100 characters/],
        [['-', '--name', 'n'.repeat(101)], s.env, /--name must be 1 to 100 characters/],
        [['-', '--type', 'deep'], s.env, /--type must be link or cmp/],
        [[], s.env, /usage: trackcheck batch/],
        [['-'], { ...s.env, TRACKCHECK_SERVER: 'ftp://x' }, /TRACKCHECK_SERVER: expected an http\(s\) URL/],
        [['-'], { ...s.env, TRACKCHECK_API_KEY: 'hunter2' }, /TRACKCHECK_API_KEY: expected an API key/],
        [[file('one.txt', `${s.links.good(11)}\n`), '--server', dead], s.env, new RegExp(`cannot reach ${dead}: .*ECONNREFUSED`)],
      ];
      for (const [args, env, message] of cases) {
        const f = fakeIo({ stdin: `${s.links.good(12)}\n` });
        expect(await batchCommand(args, env, f.io), args.join(' ')).toBe(2);
        expect(f.stderr()).toMatch(message);
      }
    });

    it('reports an API key the service does not know', async () => {
      const f = fakeIo({ stdin: `${s.links.good(13)}\n` });
      const code = await batchCommand(['-'], { ...s.env, TRACKCHECK_API_KEY: 'pg_live_00000000-0000-4000-8000-000000000000' }, f.io);
      expect(code).toBe(2);
      expect(f.stderr()).toMatch(/^batch: invalid_api_key: /);
    });
  });

  describe('as a real process', () => {
    it('reads stdin from a pipe, is silent on stderr, and exits 1 when a link will not track', async () => {
      const result = await runCli(['batch', '-', '--format', 'csv', ...FAST], s.env, `${s.links.good(14)}\n${s.links.broken}\n`);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(1);
      expect(result.stdout.split('\r\n')[0]).toBe(
        'url,slug,status,verdict,willTrack,healthScore,network,finalUrl,finalStatus,redirectCount,criticalIssues',
      );
      expect(result.stdout).toContain(',completed,will_not_track,false,');
    });

    it('prints its version with --version and -v', async () => {
      const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
      for (const flag of ['--version', '-v']) {
        const result = await runCli([flag], {});
        expect(result.code, flag).toBe(0);
        expect(result.stdout, flag).toBe(`${version}\n`);
      }
      const help = await runCli(['help'], {});
      for (const text of ['--format text|json|csv|markdown', '-o <file>', '--no-progress', '--name <text>', '--version, -v'])
        expect(help.stdout).toContain(text);
    });

    it('writes -o atomically and leaves the terminal the progress and summary, off with --no-progress', async () => {
      const out = path.join(dir, 'pty-out.md');
      const list = file('pty-o.txt', `${s.links.good(28)}\n`);
      const run = async (extra: string[]) => {
        const command = [process.execPath, CLI, 'batch', list, '--format', 'markdown', '-o', out, ...extra, ...FAST]
          .map((a) => `'${a}'`)
          .join(' ');
        return (await exec('script', ['-qec', command, '/dev/null'], { env: { ...process.env, ...s.env } })).stdout;
      };
      const shown = await run([]);
      expect(shown).toContain('1/1 checked 100%');
      expect(shown).toContain('1 link: 1 will track, 0 will not track, 0 failed');
      expect(readFileSync(out, 'utf8')).toMatch(/^\*\*1 of 1 link will track\*\*\n/);
      const quiet = await run(['--no-progress']);
      expect(quiet).not.toContain('checked');
      expect(quiet).not.toContain('\x1b[2K');
      expect(quiet.trim()).toBe('1 link: 1 will track, 0 will not track, 0 failed');
    });

    it('draws the progress bar in a pseudo-terminal', async () => {
      const list = file('pty.txt', `${s.links.good(15)}\n${s.links.good(16)}\n`);
      const command = [process.execPath, CLI, 'batch', list, ...FAST].map((a) => `'${a}'`).join(' ');
      const { stdout } = await exec('script', ['-qec', command, '/dev/null'], { env: { ...process.env, ...s.env } });
      expect(stdout).toContain('2/2 checked 100%');
      expect(stdout).toContain('\x1b[2K');
      expect(stdout).toContain('2 links: 2 will track, 0 will not track, 0 failed');
    });
  });
});
