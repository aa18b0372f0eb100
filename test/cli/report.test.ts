// `trackcheck report <slug>`: a stored report printed with the formatter of `trackcheck check`, its evidence
// file, JSON, report URLs, and the exit codes.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportCommand } from '../../src/cli/report-command.js';
import { formatReport } from '../../src/cli/report-text.js';
import { toCheckResult } from '../../src/cli/api-check-result.js';
import { TrackcheckClient, type Check } from '../../src/index.js';
import { refusedUrl } from '../client/running-service.js';
import { fakeIo, startLinkService, type LinkService } from '../client/link-service.js';

describe('trackcheck report', () => {
  let s: LinkService;
  let client: TrackcheckClient;
  let good: Check;
  let broken: Check;
  let dead: string;

  beforeAll(async () => {
    s = await startLinkService();
    dead = await refusedUrl();
    client = new TrackcheckClient({ baseUrl: s.t.url, apiKey: s.key });
    good = await client.checks.run({ url: s.links.good(1) });
    broken = await client.checks.run({ url: s.links.broken });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('prints the report with the check formatter, its page, view count and evidence link; exit 0 when it tracks', async () => {
    const f = fakeIo();
    expect(await reportCommand([good.slug], s.env, f.io)).toBe(0);
    const result = toCheckResult(good);
    expect(result).not.toBeNull();
    const report = await client.reports.get(good.slug);
    expect(f.stdout()).toBe(
      `${formatReport(good.url, result ?? (undefined as never))}\n\n` +
        `report   ${report.reportUrl}   (1 view)\n` +
        `evidence ${report.evidenceUrl}   (trackcheck report ${good.slug} --evidence)\n`,
    );
    expect(f.stdout()).toMatch(/^WILL TRACK {3}health \d+\/100\nlink {5}https:\/\/www\.awin1\.com/);
    expect(f.stderr()).toBe('');
    const again = fakeIo();
    await reportCommand([good.slug], s.env, again.io);
    expect(again.stdout()).toContain('(3 views)');
  });

  it('exits 1 for a link that will not track', async () => {
    const f = fakeIo();
    expect(await reportCommand([broken.slug], s.env, f.io)).toBe(1);
    expect(f.stdout()).toMatch(/^WILL NOT TRACK/);
    expect(f.stdout()).toContain('[critical] landing_error_status');
  });

  it('--evidence prints the evidence file and counts no view; --json prints the report', async () => {
    const before = (await client.reports.get(broken.slug)).viewCount;
    const f = fakeIo();
    expect(await reportCommand([broken.slug, '--evidence'], s.env, f.io)).toBe(0);
    expect(f.stdout()).toBe(await client.reports.evidence(broken.slug));
    expect(f.stdout()).toContain('SHA-256');
    const json = fakeIo();
    expect(await reportCommand([broken.slug, '--json'], s.env, json.io)).toBe(1);
    expect(JSON.parse(json.stdout())).toMatchObject({ slug: broken.slug, willTrack: false, viewCount: before + 1 });
  });

  it('--format markdown, csv and json; -o writes the report to a file instead of stdout', async () => {
    const md = fakeIo();
    expect(await reportCommand([broken.slug, '--format', 'markdown'], s.env, md.io)).toBe(1);
    const text = md.stdout();
    expect(text).toMatch(
      /^# WILL NOT TRACK\n\nHealth \d+\/100 · http mode\n\n\| {2}\| {2}\|\n\|---\|---\|\n\| Link \| `https:\/\/go\.shoes\.example/,
    );
    expect(text).toContain(`| Slug | \`${broken.slug}\` (\`trackcheck report ${broken.slug}\`) |`);
    expect(text).toMatch(/\| Report \| <http:\/\/127\.0\.0\.1:\d+\/r\/\S+> \|/);
    expect(text).toContain('## Hops (1 redirect, ');
    expect(text).toMatch(/- \*\*critical\*\* `landing_error_status`[^\n]*\n {2}.+ {2}\n {2}\*\*Fix:\*\* /);

    const csv = fakeIo();
    expect(await reportCommand([good.slug, '--format', 'csv'], s.env, csv.io)).toBe(0);
    const [header, row] = csv.stdout().split('\r\n');
    expect(header).toBe('url,slug,status,verdict,willTrack,healthScore,network,finalUrl,finalStatus,redirectCount,criticalIssues');
    expect(row).toMatch(new RegExp(`^https://www\\.awin1\\.com[^,]*,${good.slug},completed,will_track,true,\\d+,Awin,`));

    const dir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-report-'));
    try {
      const file = path.join(dir, 'report.txt');
      const quiet = fakeIo();
      expect(await reportCommand([good.slug, '-o', file], s.env, quiet.io)).toBe(0);
      expect(quiet.stdout()).toBe('');
      expect(readFileSync(file, 'utf8')).toMatch(/^WILL TRACK {3}health \d+\/100\n[\s\S]*\nevidence .*--evidence\)\n$/);
      const evidence = path.join(dir, 'evidence.txt');
      expect(await reportCommand([broken.slug, '--evidence', '--output', evidence], s.env, fakeIo().io)).toBe(0);
      expect(readFileSync(evidence, 'utf8')).toBe(await client.reports.evidence(broken.slug));
      expect(readdirSync(dir).sort()).toEqual(['evidence.txt', 'report.txt']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes a report URL and reads it from that service, without sending the key elsewhere', async () => {
    const sent: { url: string; auth: string | null }[] = [];
    const f = fakeIo({
      fetch: (input, init) => {
        sent.push({ url: input, auth: new Headers(init.headers).get('authorization') });
        return fetch(input, init);
      },
    });
    const reportUrl = `${s.t.url}/r/${good.slug}`;
    // The configured server is another one: the pasted URL's service is read anonymously.
    expect(await reportCommand([reportUrl], { ...s.env, TRACKCHECK_SERVER: dead }, f.io)).toBe(0);
    expect(sent).toEqual([{ url: `${s.t.url}/v1/reports/${good.slug}`, auth: null }]);
    sent.length = 0;
    expect(await reportCommand([reportUrl], s.env, f.io)).toBe(0);
    expect(sent[0]?.auth).toBe(`Bearer ${s.key}`);
  });

  it('exits 2 for an unknown slug, a bad argument, an unfinished check or an unreachable service', async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['doesnotexist1234'], s.env, /^report: not_found: /],
      [['not a slug'], s.env, /not a report slug or report URL/],
      [[], s.env, /usage: trackcheck report/],
      [[good.slug, '--json', '--evidence'], s.env, /cannot be combined/],
      [[good.slug, '--evidence', '--format', 'markdown'], s.env, /--evidence and --format markdown cannot be combined/],
      [[good.slug, '--format', 'pdf'], s.env, /--format must be one of text, json, csv, markdown$/m],
      [[good.slug, '-o', '/nonexistent-dir/x.md'], s.env, /cannot write \/nonexistent-dir\/x\.md: ENOENT/],
      [[good.slug], { TRACKCHECK_SERVER: dead }, new RegExp(`cannot reach ${dead}: .*ECONNREFUSED`)],
    ];
    for (const [args, env, message] of cases) {
      const f = fakeIo({ sleep: async () => undefined });
      expect(await reportCommand(args, env, f.io), args.join(' ')).toBe(2);
      expect(f.stderr()).toMatch(message);
    }
    const queued = fakeIo({
      fetch: async () => Response.json({ data: { ...good, status: 'queued', verdict: null, willTrack: null, healthScore: null } }),
    });
    expect(await reportCommand([good.slug], s.env, queued.io)).toBe(2);
    expect(queued.stderr()).toContain('still queued');
  });
});
