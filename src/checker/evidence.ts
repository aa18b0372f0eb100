// The dispute evidence file: a plain-text dossier a network's support team can read without tools.
// Layout is fixed (format "trackcheck-evidence/2": every URL verbatim on a line of its own, so it can be searched
// for and copied; every other line at most 100 characters) and the text is a pure function of the check, so
// downloading it twice gives the same bytes. See docs/evidence.md.
import { browserEngineRecord, describeLimits, httpEngineRecord, type EngineRecord } from './engine-record.js';
import { agentName } from './privacy/catalogue.js';
import type { CheckView } from '../contract/check.js';
import type { CookieRecord, Hop } from './types.js';
import { verdictKind, type VerdictKind } from './analysis/verdict.js';

export const EVIDENCE_FORMAT = 'trackcheck-evidence/2';
export const EVIDENCE_WIDTH = 100;

/** A check as the API shows it (the contract's Check); the file derives the verdict itself. */
export type EvidenceCheck = Omit<CheckView, 'verdict'>;

export interface EvidenceInput {
  service: { name: string; version: string };
  check: EvidenceCheck;
  startedAt: string | null;
  /** What the engine ran this check with; null when not recorded (checks stored by older versions). */
  engine: EngineRecord | null;
  /** The public web page of the report. */
  reportUrl: string;
  /** Base URL of the API, for the verification command. */
  publicUrl: string;
  /** Lowercase hex SHA-256 of the check's canonical JSON. */
  digest: string;
}

const VERDICT_LINES: Record<VerdictKind, string> = {
  will_track: 'WILL TRACK: the click reaches the merchant with its attribution intact',
  will_not_track: 'WILL NOT TRACK: the click loses its attribution or never lands',
  could_not_verify: 'COULD NOT VERIFY: the real landing page could not be seen (not the same as broken)',
  no_tracking_found: 'NO TRACKING FOUND: the page loads, but no affiliate network or aggregator handles the click',
  pending: 'NO VERDICT YET: the check is still running',
  failed: 'NO VERDICT: the checker could not run',
};

// Control, format (bidi overrides, zero-width) and line/paragraph separator characters could hide or reorder
// what a reader sees; they are shown as \uXXXX. Everything else is shown exactly.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

export function revealInvisible(text: string): string {
  return text.replace(INVISIBLE, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}

const BREAK_AFTER = new Set(['/', '?', '&', '#', '=', ';', ',']);

/** Splits a URL into lines of at most `width` characters, preferring to break after / ? & # = ; , */
export function wrapUrl(url: string, width: number): string[] {
  const chars = Array.from(revealInvisible(url));
  const lines: string[] = [];
  let start = 0;
  while (chars.length - start > width) {
    let cut = start + width;
    for (let i = start + width - 1; i >= start + Math.floor(width * 0.6); i -= 1) {
      if (BREAK_AFTER.has(chars[i] ?? '')) {
        cut = i + 1;
        break;
      }
    }
    lines.push(chars.slice(start, cut).join(''));
    start = cut;
  }
  lines.push(chars.slice(start).join(''));
  return lines;
}

/** Greedy word wrap; a word longer than the width is split. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of revealInvisible(text).split(/\s+/).filter(Boolean)) {
    const pieces = Array.from(word).length > width ? wrapUrl(word, width) : [word];
    for (const piece of pieces) {
      const joined = line === '' ? piece : `${line} ${piece}`;
      if (Array.from(joined).length <= width) line = joined;
      else {
        lines.push(line);
        line = piece;
      }
    }
  }
  lines.push(line);
  return lines;
}

/** `label` in a column of `labelWidth` at `indent`, the value wrapped beside it. */
function field(indent: number, labelWidth: number, label: string, value: string | string[]): string[] {
  const width = EVIDENCE_WIDTH - indent - labelWidth;
  const values = Array.isArray(value) ? value : [value];
  const lines = values.flatMap((v) => wrapWords(v, width));
  return lines.map((line, i) => `${' '.repeat(indent)}${(i === 0 ? label : '').padEnd(labelWidth)}${line}`.trimEnd());
}

/** A URL: its label, then the URL verbatim on a line of its own, however long (CONTRACT.md section 7). */
function urlField(indent: number, label: string, url: string): string[] {
  return [`${' '.repeat(indent)}${label}`, `${' '.repeat(indent + 2)}${revealInvisible(url)}`];
}

const top = (label: string, value: string | string[]) => field(2, 16, label, value);
const sub = (label: string, value: string | string[]) => field(7, 12, label, value);
const topUrl = (label: string, url: string) => urlField(2, label, url);
const subUrl = (label: string, url: string) => urlField(7, label, url);

function heading(title: string): string[] {
  return ['', title, '-'.repeat(EVIDENCE_WIDTH)];
}

const yesNo = (value: boolean | null) => (value === null ? 'unknown' : value ? 'yes' : 'no');
const ms = (value: number) => `${Math.round(value)} ms`;

/** Two lines per cookie: the name and its party, then where it applies and how long it lives. */
function describeCookie(c: CookieRecord, n: number): string[] {
  const life = c.expiresAt === null ? 'session cookie' : `expires ${c.expiresAt} (${c.expiryDays ?? 0} days)`;
  const flags = [c.secure ? 'Secure' : null, c.httpOnly ? 'HttpOnly' : null, c.sameSite ? `SameSite=${c.sameSite}` : null].filter(Boolean);
  const where = [`domain ${c.domain}`, `path ${c.path}`, life, ...flags].join(', ');
  const head = wrapWords(`${n}. ${c.name} (${c.firstParty ? 'first-party' : 'third-party'})`, EVIDENCE_WIDTH - 22);
  return [head[0] ?? '', ...[...head.slice(1), ...wrapWords(where, EVIDENCE_WIDTH - 22)].map((line) => `   ${line}`)];
}

function hopRow(index: string, status: string, kind: string, time: string, network: string): string {
  return `${index.padStart(3)}  ${status.padEnd(6)}  ${kind.padEnd(12)}  ${time.padStart(9)}  ${network}`;
}

function hopLines(hop: Hop, index: number): string[] {
  const status = hop.status === null ? 'none' : String(hop.status);
  const network = hop.network ? `${hop.network.name} (${hop.network.id}, ${hop.network.role})` : '-';
  const lines = [hopRow(String(index), status, hop.kind, ms(hop.timeMs), network)];
  lines.push(...subUrl('URL', hop.url));
  if (hop.location !== null) lines.push(...subUrl('Location', hop.location));
  if (hop.error !== null) lines.push(...sub('Error', hop.error));
  const params = [
    hop.paramsAdded.length > 0 ? `added ${hop.paramsAdded.join(', ')}` : null,
    hop.paramsRemoved.length > 0 ? `removed ${hop.paramsRemoved.join(', ')}` : null,
  ];
  lines.push(...sub('Params', params.filter((p) => p !== null).join('; ') || 'none added or removed'));
  const cookies = hop.cookies.flatMap((c, i) => describeCookie(c, i + 1));
  lines.push(
    ...(cookies.length > 0
      ? cookies.map((line, i) => `${' '.repeat(7)}${(i === 0 ? 'Cookies' : '').padEnd(12)}${line}`)
      : sub('Cookies', 'none set')),
  );
  return [...lines, ''];
}

function verdictSection(c: EvidenceCheck): string[] {
  const lines = [...heading('VERDICT'), ...top('Verdict', VERDICT_LINES[verdictKind(c)])];
  if (c.status === 'failed') return [...lines, ...top('Reason', c.error ? `${c.error.code}: ${c.error.message}` : 'unknown')];
  if (c.willTrack === null) return lines;
  const tp = c.trackingParameters;
  lines.push(
    ...top('Will track', yesNo(c.willTrack)),
    ...top('Health score', `${c.healthScore ?? '-'}/100`),
    ...top('Network', c.network ? `${c.network} (${c.networkId ?? ''})` : 'none detected'),
    ...top('Chain', c.networks.length > 0 ? c.networks.map((n) => `${n.name} [${n.role}]`).join(' -> ') : 'no network or aggregator seen'),
    ...top(
      'Click id',
      tp && tp.expected.length > 0
        ? `expected ${tp.expected.join(' or ')}; at landing: ${tp.present.length > 0 ? tp.present.join(', ') : 'MISSING'}`
        : 'none expected',
    ),
    ...(c.finalUrl === null ? top('Final URL', 'none (no response)') : topUrl('Final URL', c.finalUrl)),
    ...top('Final status', c.finalStatus === null ? 'none (no response)' : String(c.finalStatus)),
    ...top('Redirects', `${c.redirectCount ?? 0} (${ms(c.totalRedirectTimeMs ?? 0)} in total)`),
    ...top(
      'Cookies',
      `first-party set: ${yesNo(c.firstPartyCookieSet)}; third-party set: ${yesNo(c.thirdPartyCookieSet)}; longest first-party lifetime: ${c.cookieExpiryDays === null ? 'none' : `${c.cookieExpiryDays} days`}`,
    ),
  );
  return lines;
}

function issueLines(c: EvidenceCheck): string[] {
  const count = (s: string) => c.issues.filter((i) => i.severity === s).length;
  const lines = heading(`ISSUES (${c.issues.length}: ${count('critical')} critical, ${count('warning')} warning, ${count('info')} info)`);
  if (c.issues.length === 0) lines.push(c.willTrack === null ? '  none (no result yet)' : '  none');
  c.issues.forEach((issue, i) => {
    lines.push(
      `${String(i + 1).padStart(3)}. ${issue.severity.toUpperCase()}  ${issue.code}${issue.hop === null ? '' : `  (hop ${issue.hop})`}`,
    );
    lines.push(...sub('Title', issue.title), ...sub('What', issue.description), ...sub('Fix', issue.fix), '');
  });
  return lines;
}

/** CONTRACT.md section 10, one line per agent; the rules and their sources are in docs/privacy.md. */
function privacyLines(c: EvidenceCheck): string[] {
  if (c.privacy === null || c.privacy.length === 0) return [];
  const lines = [...heading('PRIVACY TOOLS (what each browser or blocker does to this link; see docs/privacy.md)')];
  for (const entry of c.privacy) {
    const parts = [
      `network hop runs: ${yesNo(entry.trackerVisited)}`,
      `click id arrives: ${yesNo(entry.clickIdSurvives)}`,
      entry.strippedParameters.length > 0 ? `removes ${entry.strippedParameters.join(', ')}` : null,
      entry.cookieLifetimeDays === null ? null : `cookie lives ${entry.cookieLifetimeDays} days`,
    ];
    lines.push(`  ${agentName(entry.agent)}`, ...field(7, 0, '', parts.filter((p) => p !== null).join('; ')));
  }
  return lines;
}

function consentLines(c: EvidenceCheck): string[] {
  if (c.consent === null) return [];
  const platform = c.consent.platform ? `${c.consent.platform.name} (${c.consent.platform.id})` : 'none detected';
  const lines = [...heading('CONSENT BANNER'), ...top('Platform', platform)];
  for (const s of c.consent.scenarios) {
    const cookies = s.attributionCookies.length > 0 ? s.attributionCookies.join(', ') : 'none';
    lines.push(...top(s.scenario, `click id at landing: ${yesNo(s.clickIdPresent)}; attribution cookies: ${cookies}`));
  }
  return lines;
}

/**
 * The shell commands that recompute the digest from the public report (docs/evidence.md). `node` is one command
 * over several lines: the breaks fall inside the single-quoted script, where they are plain whitespace.
 */
export function verifyCommands(
  publicUrl: string,
  slug: string,
): { setup: string; node: string[]; nodeOneLine: string; jq: string[]; jqOneLine: string } {
  const node = [
    `curl -s "$BASE/v1/reports/$SLUG" | node -e 'const c = (v) => Array.isArray(v)`,
    `  ? "[" + v.map(c) + "]" : v && typeof v === "object"`,
    `  ? "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + c(v[k])) + "}"`,
    `  : JSON.stringify(v);`,
    `  const { viewCount, reportUrl, evidenceUrl, ...check } =`,
    `  JSON.parse(require("fs").readFileSync(0)).data;`,
    `  process.stdout.write(c(check))' | sha256sum`,
  ];
  return {
    setup: `BASE='${publicUrl}' SLUG='${slug}'`,
    node,
    nodeOneLine: node.map((line) => line.trim()).join(' '),
    // A line ending in a pipe continues the command.
    jq: [`curl -s "$BASE/v1/reports/$SLUG" |`, `  jq -jcS '.data|del(.viewCount,.reportUrl,.evidenceUrl)' | sha256sum`],
    jqOneLine: `curl -s "$BASE/v1/reports/$SLUG" | jq -jcS '.data|del(.viewCount,.reportUrl,.evidenceUrl)' | sha256sum`,
  };
}

function integrityLines(input: EvidenceInput): string[] {
  const { setup, node, jq } = verifyCommands(input.publicUrl, input.check.slug);
  const slug = input.check.slug;
  return [
    ...heading('INTEGRITY'),
    ...top('SHA-256', input.digest),
    ...top(
      'Covers',
      `the canonical JSON of this check: the "data" object of GET /v1/reports/${slug} without viewCount, reportUrl and evidenceUrl (the same object GET /v1/checks/${slug} returns), keys sorted, no whitespace (RFC 8785).`,
    ),
    ...top('Verify', 'run these lines in a shell (node 18 or later); the digest printed must equal the one above:'),
    '',
    `  ${setup}`,
    ...node.map((line) => `  ${line}`),
    '',
    ...top('Or, with jq', 'the same digest unless a string holds U+007F or a number needs an exponent:'),
    '',
    `  ${setup}`,
    ...jq.map((line) => `  ${line}`),
  ];
}

/** The settings the check ran with, as recorded with it; for older checks, this version's defaults, said so. */
function settingsLines(record: EngineRecord | null, mode: EvidenceCheck['mode']): string[] {
  if (mode === null) return [];
  if (record === null) {
    const defaults = mode === 'browser' ? browserEngineRecord({}, 'version not recorded') : httpEngineRecord({});
    const note = ' (not recorded with this check: the defaults of the version serving this file)';
    return [
      ...top('User agent', mode === 'browser' ? `a desktop Chrome's${note}` : `${defaults.userAgent}${note}`),
      ...top('Limits', `${describeLimits(defaults.limits)}${note}`),
    ];
  }
  return [
    ...top('Checked by', `trackcheck ${record.version}${record.browser === null ? '' : `, ${record.browser}`}`),
    ...top('User agent', record.userAgent),
    ...top('Limits', describeLimits(record.limits)),
  ];
}

export function formatEvidence(input: EvidenceInput): string {
  const c = input.check;
  const engine =
    c.mode === 'browser'
      ? 'browser: Chromium, JavaScript executed'
      : 'http: hop by hop, no automatic redirects; meta refresh and literal JavaScript redirects followed';
  const lines = [
    'TRACKCHECK EVIDENCE: WHAT HAPPENED TO ONE CLICK ON A TRACKING LINK',
    '='.repeat(EVIDENCE_WIDTH),
    ...wrapWords(
      "trackcheck followed the link below the way a shopper's browser does, one request at a time, and recorded every hop. Cookie values are never recorded, only names, domains and lifetimes. Times are UTC.",
      EVIDENCE_WIDTH,
    ),
    '',
    ...top('Format', EVIDENCE_FORMAT),
    ...top('Service', `${input.service.name} ${input.service.version}`),
    ...top('Check', c.slug),
    ...topUrl('Report', input.reportUrl),
    ...topUrl('Submitted URL', c.url),
    ...top('Check type', c.checkType),
    ...top('Status', c.status),
    ...top('Submitted at', c.createdAt),
    ...top('Started at', input.startedAt ?? 'not started'),
    ...top('Finished at', c.completedAt ?? 'not finished'),
    ...heading('SETTINGS'),
    ...top('Engine', c.mode === null ? 'not run yet' : engine),
    ...settingsLines(input.engine, c.mode),
    ...top('Cookies', 'a fresh cookie jar per check, kept by RFC 6265 rules like a browser'),
    ...top('Addresses', 'every host resolved by trackcheck; private and reserved addresses refused'),
    ...verdictSection(c),
    ...heading(`HOPS (${c.hops.length} requests, ${c.redirectCount ?? 0} redirects)`),
    hopRow('#', 'STATUS', 'KIND', 'TIME', 'NETWORK'),
    ...(c.hops.length > 0 ? c.hops.flatMap(hopLines) : ['  none recorded yet', '']),
    ...issueLines(c),
    ...consentLines(c),
    ...privacyLines(c),
    ...integrityLines(input),
    '',
    `End of evidence for check ${c.slug}.`,
  ];
  // Sections end and begin with a blank line; one is enough.
  // Wrapped values are revealed already; this also covers the short unwrapped ones (names, codes).
  return `${lines
    .map(revealInvisible)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')}\n`;
}
