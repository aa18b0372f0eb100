import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { evidenceField } from '../web/report-fixtures.js';
import { browserEngineRecord, httpEngineRecord, type EngineRecord } from '../../src/checker/engine-record.js';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from '../../src/lib/canonical-json.js';
import { formatEvidence, revealInvisible, verifyCommands, wrapUrl, wrapWords, type EvidenceCheck } from '../../src/checker/evidence.js';
import { verdictKind as verdictOf } from '../../src/checker/analysis/verdict.js';

const exec = promisify(execFile);

function sampleCheck(overrides: Partial<EvidenceCheck> = {}): EvidenceCheck {
  const cookie = {
    name: '_aw_m_12345',
    domain: 'www.shop.example',
    path: '/',
    expiresAt: '2026-01-01T00:00:00.000Z',
    expiryDays: 365,
    secure: true,
    httpOnly: false,
    sameSite: 'lax' as const,
    firstParty: true,
    setByHop: 1,
  };
  return {
    slug: 'abcdefghij1234',
    url: 'https://www.awin1.com/cread.php?awinmid=1&awinaffid=2',
    checkType: 'link',
    status: 'completed',
    createdAt: '2025-01-01T00:00:00.000Z',
    completedAt: '2025-01-01T00:00:01.000Z',
    error: null,
    willTrack: true,
    healthScore: 96,
    network: 'Awin',
    networkId: 'awin',
    networks: [{ id: 'awin', name: 'Awin', role: 'network' }],
    finalUrl: 'https://www.shop.example/p/1?awc=1_2_3',
    finalStatus: 200,
    redirectCount: 1,
    totalRedirectTimeMs: 120,
    hops: [
      {
        url: 'https://www.awin1.com/cread.php?awinmid=1&awinaffid=2',
        status: 302,
        location: 'https://www.shop.example/p/1?awc=1_2_3',
        kind: 'http',
        timeMs: 80,
        network: { id: 'awin', name: 'Awin', role: 'network' },
        paramsAdded: [],
        paramsRemoved: [],
        cookies: [],
        error: null,
      },
      {
        url: 'https://www.shop.example/p/1?awc=1_2_3',
        status: 200,
        location: null,
        kind: 'http',
        timeMs: 40,
        network: null,
        paramsAdded: ['awc'],
        paramsRemoved: ['awinmid', 'awinaffid'],
        cookies: [cookie],
        error: null,
      },
    ],
    trackingParameterPresent: true,
    trackingParameters: { expected: ['awc'], present: ['awc'], missing: [] },
    firstPartyCookieSet: true,
    thirdPartyCookieSet: false,
    cookieExpiryDays: 365,
    cookies: [cookie],
    issues: [
      {
        code: 'stacked_networks',
        severity: 'warning',
        title: 'Two trackers',
        description: 'A long description. '.repeat(12),
        fix: 'Remove one.',
        hop: null,
      },
    ],
    mode: 'http',
    consent: null,
    privacy: null,
    ...overrides,
  };
}

const render = (check: EvidenceCheck, engine: EngineRecord | null = null) =>
  formatEvidence({
    service: { name: 'trackcheck', version: '9.9.9' },
    check,
    startedAt: check.createdAt,
    engine,
    reportUrl: `https://tc.example/r/${check.slug}`,
    publicUrl: 'https://tc.example',
    digest: 'ab'.repeat(32),
  });

/** Every line but a URL line (which is verbatim, however long) fits in 100 columns. */
const widthOk = (text: string) => text.split('\n').every((line) => /^\s*https?:\/\//.test(line) || Array.from(line).length <= 100);

describe('canonical JSON', () => {
  it('sorts keys, drops whitespace and writes numbers and strings as ECMAScript does (RFC 8785)', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'é\n"\u001f'], c: { z: 1e21, y: 1e-7, x: 0.000001, w: -0, v: 4.5 } })).toBe(
      '{"a":[true,null,"é\\n\\"\\u001f"],"b":1,"c":{"v":4.5,"w":0,"x":0.000001,"y":1e-7,"z":1e+21}}',
    );
    expect(canonicalJson({ '\u00e9': 1, e: 2, E: 3, '10': 4, '9': 5 })).toBe('{"10":4,"9":5,"E":3,"e":2,"é":1}');
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(TypeError);
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('round-trips any JSON value and ignores key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        const reversed = JSON.parse(JSON.stringify(value), (_k, v: unknown) =>
          v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
        );
        expect(canonicalJson(reversed)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('verify commands', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-verify-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs a documented command with `curl` replaced by a function that prints a stored response. */
  async function runWithResponse(command: string, body: string): Promise<string> {
    const file = path.join(dir, 'response.json');
    writeFileSync(file, body);
    const { stdout } = await exec('bash', ['-c', `curl() { cat "$RESPONSE"; }\nBASE=https://tc.example SLUG=x\n${command}`], {
      env: { ...process.env, RESPONSE: file },
    });
    return stdout.trim().split(/\s+/)[0] ?? '';
  }

  it('the node one-liner and the multi-line form print the digest of the canonical check, for any JSON', async () => {
    const { node, nodeOneLine } = verifyCommands('https://tc.example', 'x');
    const samples = fc.sample(fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue({ stringUnit: 'binary' })), {
      numRuns: 12,
      seed: 42,
    });
    samples.push(sampleCheck() as unknown as Record<string, fc.JsonValue>);
    for (const fields of samples) {
      const { viewCount: _v, reportUrl: _r, evidenceUrl: _e, ...check } = fields;
      const body = JSON.stringify({ data: { ...fields, viewCount: 7, reportUrl: 'https://tc.example/r/x', evidenceUrl: 'e' } });
      const expected = sha256Hex(canonicalJson(check));
      expect(await runWithResponse(nodeOneLine, body)).toBe(expected);
      expect(await runWithResponse(node.join('\n'), body)).toBe(expected);
    }
  });

  it('the jq form agrees on report-shaped data', async (ctx) => {
    const jq = await exec('jq', ['--version']).catch(() => null);
    if (!jq) ctx.skip();
    const { jq: lines, jqOneLine } = verifyCommands('https://tc.example', 'x');
    const body = JSON.stringify({
      data: { ...sampleCheck({ url: 'https://ex.example/ü?q=日本&x=%7Bsub%7D' }), viewCount: 3, reportUrl: 'r', evidenceUrl: 'e' },
    });
    const expected = sha256Hex(canonicalJson(sampleCheck({ url: 'https://ex.example/ü?q=日本&x=%7Bsub%7D' })));
    expect(await runWithResponse(jqOneLine, body)).toBe(expected);
    expect(await runWithResponse(lines.join('\n'), body)).toBe(expected);
  });
});

describe('evidence text', () => {
  it('writes every URL verbatim on a line of its own, however long, and keeps every other line within 100 columns', () => {
    const long = `https://www.awin1.com/cread.php?${'p=' + 'x'.repeat(700)}&ued=${encodeURIComponent('https://shop.example/' + 'y'.repeat(300))}`;
    const location = `https://shop.example/${'y'.repeat(300)}?awc=1_2`;
    const check = sampleCheck({ url: long, finalUrl: location });
    const hops = [{ ...check.hops[0]!, url: long, location, status: 302 }, ...check.hops.slice(1)]; // sampleCheck has hops
    const text = render({ ...check, hops });
    expect(widthOk(text)).toBe(true);
    const lines = text.split('\n').map((line) => line.trim());
    for (const url of [long, location, `https://tc.example/r/${check.slug}`]) expect(lines).toContain(url);
    expect(text).toContain('trackcheck-evidence/2');
  });

  it('wraps URLs so that joining the lines gives the URL back, exactly', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.integer({ min: 10, max: 100 }), (url, width) => {
        const lines = wrapUrl(url, width);
        expect(lines.every((l) => Array.from(l).length <= width)).toBe(true);
        expect(lines.join('')).toBe(revealInvisible(url));
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.integer({ min: 10, max: 100 }), (prose, width) => {
        expect(wrapWords(prose, width).every((l) => Array.from(l).length <= width)).toBe(true);
      }),
    );
  });

  it('shows control and direction-changing characters as escapes, never raw', () => {
    const text = render(sampleCheck({ url: 'https://shop.example/\u202Egnp.exe?a=1\nInjected: line\u0007' }));
    expect(text).toContain('\\u202e');
    expect(text).toContain('\\u000a');
    expect(text).not.toMatch(/[\u202E\u0007]/);
    expect(text).not.toMatch(/^Injected/m);
  });

  it('is a pure function of the check and says what it cannot know yet', () => {
    const check = sampleCheck();
    expect(render(check)).toBe(render(structuredClone(check)));
    const pending = render(
      sampleCheck({ status: 'running', completedAt: null, willTrack: null, healthScore: null, hops: [], issues: [], mode: null }),
    );
    expect(pending).toContain('NO VERDICT YET');
    expect(pending).toContain('none recorded yet');
    const failed = render(
      sampleCheck({
        status: 'failed',
        willTrack: null,
        hops: [],
        issues: [],
        error: { code: 'browser_unavailable', message: 'No browser.' },
      }),
    );
    expect(failed).toContain('browser_unavailable: No browser.');
    const cmp = render(
      sampleCheck({
        checkType: 'cmp',
        consent: {
          platform: { id: 'onetrust', name: 'OneTrust' },
          scenarios: [{ scenario: 'reject_all', clickIdPresent: true, attributionCookies: [] }],
        },
      }),
    );
    expect(cmp).toMatch(
      /CONSENT BANNER[\s\S]*OneTrust \(onetrust\)[\s\S]*reject_all {6}click id at landing: yes; attribution cookies: none/,
    );
  });

  it('states the settings recorded with the check, and says when a check has none recorded', () => {
    const http = render(sampleCheck(), { ...httpEngineRecord({ hopTimeoutMs: 5_000 }), version: '1.2.3' });
    expect(evidenceField(http, 'Checked by')).toBe('trackcheck 1.2.3');
    expect(evidenceField(http, 'User agent')).toMatch(
      /^Mozilla\/5\.0 \(Windows NT 10\.0; Win64; x64\) .*Chrome\/\d+\.0\.0\.0 Safari\/537\.36$/,
    );
    expect(evidenceField(http, 'Limits')).toBe(
      'at most 20 redirects, 5 s per hop, 30 s per pass, 120 s per check in all, 512 KiB of each page read',
    );
    const browser = render(sampleCheck({ mode: 'browser' }), { ...browserEngineRecord({}, '156.0.8078.79'), version: '1.2.3' });
    expect(evidenceField(browser, 'Checked by')).toBe('trackcheck 1.2.3, Chromium 156.0.8078.79');
    // Wrapped at a space, which evidenceField does not put back.
    const browserAgent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
    expect(evidenceField(browser, 'User agent').replace(/ /g, '')).toBe(browserAgent.replace(/ /g, ''));
    expect(evidenceField(browser, 'Limits')).toBe('at most 20 redirects, 10 s per hop, 30 s per pass, 120 s per check in all');
    const older = render(sampleCheck());
    expect(older).not.toContain('Checked by');
    expect(evidenceField(older, 'Limits').replace(/ /g, '')).toBe(
      'at most 20 redirects, 10 s per hop, 30 s per pass, 120 s per check in all, 512 KiB of each page read (not recorded with this check: the defaults of the version serving this file)'.replace(
        / /g,
        '',
      ),
    );
  });

  it('names the verdict the way the report page does', () => {
    expect(verdictOf(sampleCheck())).toBe('will_track');
    expect(verdictOf(sampleCheck({ willTrack: false }))).toBe('will_not_track');
    const wall = sampleCheck({
      willTrack: false,
      issues: [{ code: 'could_not_verify', severity: 'warning', title: '', description: '', fix: '', hop: 0 }],
    });
    expect(verdictOf(wall)).toBe('could_not_verify');
    expect(verdictOf(sampleCheck({ status: 'queued' }))).toBe('pending');
    expect(verdictOf(sampleCheck({ status: 'failed' }))).toBe('failed');
    expect(verdictOf(sampleCheck({ willTrack: false, networks: [] }))).toBe('no_tracking_found');
  });
});
