// `trackcheck check --server`: the same report as a local check, produced by a service (with TRACKCHECK_API_KEY
// or anonymously), TRACKCHECK_SERVER, --local, and the exit codes. Real processes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/spawn-service.js';
import { refusedUrl } from '../client/running-service.js';
import { startLinkService, type LinkService } from '../client/link-service.js';

/** Timings differ between two runs of the same chain; everything else must not. */
const withoutTimings = (text: string) => text.replace(/ *\d+ ms/g, ' N ms').replace(/health \d+/, 'health N');

describe('trackcheck check --server', () => {
  let s: LinkService;
  let dir: string;
  let localEnv: Record<string, string>;
  let dead: string;

  beforeAll(async () => {
    s = await startLinkService();
    dead = await refusedUrl();
    dir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-remote-'));
    const ca = path.join(dir, 'ca.pem');
    writeFileSync(ca, s.links.caCert);
    localEnv = { TRACKCHECK_RESOLVE: s.links.resolveSpec, NODE_EXTRA_CA_CERTS: ca, TRACKCHECK_DATA_DIR: dir };
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the same report as a local check, plus the slug; exit 0 when the link tracks', async () => {
    const link = s.links.good(1);
    const remote = await runCli(['check', link, '--server', s.t.url], { TRACKCHECK_API_KEY: s.key });
    expect(remote.stderr).toBe('');
    expect(remote.code).toBe(0);
    const local = await runCli(['check', link], localEnv);
    expect(local.code).toBe(0);
    const [report, slugLine] = remote.stdout.trimEnd().split('\n\nslug     ');
    expect(withoutTimings(`${report}\n`)).toBe(withoutTimings(local.stdout));
    expect(slugLine).toMatch(/^\S{10,} {3}\(trackcheck report \S+\)$/);
  });

  it('uses TRACKCHECK_SERVER, works anonymously, and exits 1 when the link will not track', async () => {
    const result = await runCli(['check', s.links.stripped], { TRACKCHECK_SERVER: s.t.url });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^WILL NOT TRACK/);
    expect(result.stdout).toContain('[critical] tracking_parameter_stripped');
  });

  it('--json prints the API check; --local runs the engine here even with TRACKCHECK_SERVER set', async () => {
    const json = await runCli(['check', s.links.broken, '--json'], { ...s.env });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ url: s.links.broken, status: 'completed', willTrack: false, finalStatus: 404 });
    const local = await runCli(['check', s.links.broken, '--local'], { ...localEnv, TRACKCHECK_SERVER: dead });
    expect(local.code).toBe(1);
    expect(local.stdout).not.toContain('slug');
  });

  it('--format csv and markdown, locally and through the service; -o writes the file and keeps stdout empty', async () => {
    const link = s.links.good(3);
    const out = path.join(dir, 'check.csv');
    const remote = await runCli(['check', link, '--server', s.t.url, '--format', 'csv', '-o', out], { TRACKCHECK_API_KEY: s.key });
    expect(remote.stderr).toBe('');
    expect(remote.stdout).toBe('');
    expect(remote.code).toBe(0);
    const [header, row] = readFileSync(out, 'utf8').split('\r\n');
    expect(header).toBe('url,slug,status,verdict,willTrack,healthScore,network,finalUrl,finalStatus,redirectCount,criticalIssues');
    expect(row).toMatch(/^https:\/\/www\.awin1\.com\S*,\S{10,},completed,will_track,true,\d+,Awin,https:\/\/www\.shoes\.example/);
    const local = await runCli(['check', s.links.stripped, '--format', 'markdown'], localEnv);
    expect(local.code).toBe(1);
    expect(local.stdout).toMatch(/^# WILL NOT TRACK\n\nHealth \d+\/100 · http mode\n/);
    expect(local.stdout).toContain('`tracking_parameter_stripped`');
    expect(local.stdout).not.toContain('| Slug |');
    const localCsv = await runCli(['check', link, '--format', 'csv'], localEnv);
    expect(localCsv.code).toBe(0);
    expect(localCsv.stdout.split('\r\n')[1]).toMatch(/^https:\/\/www\.awin1\.com\S*,,completed,will_track,true,/);
    const bad = await runCli(['check', link, '--format', 'yaml'], localEnv);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('check: --format must be one of text, json, csv, markdown\n');
  });

  it('exits 2 when the service is unreachable, the server URL is bad, or the service refuses the link', async () => {
    const unreachable = await runCli(['check', s.links.good(2), '--server', dead], {});
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(new RegExp(`^check: cannot reach ${dead}: .*ECONNREFUSED`));
    const badUrl = await runCli(['check', s.links.good(2), '--server', 'localhost:3000'], {});
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('--server: expected an http(s) URL');
    const refused = await runCli(['check', 'http://10.1.2.3/', '--server', s.t.url], { TRACKCHECK_API_KEY: s.key });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^check: url_not_allowed: .* \[req_\w+\]\n$/);
  });
});
