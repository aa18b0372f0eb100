// `--format markdown` of `trackcheck check` and `report`: the terminal report's facts as a document to paste into
// a ticket, a pull request or a dispute (verdict, facts, hops, cookies, consent, issues with their fixes).
import type { CheckResult } from '../checker/types.js';
import { mdCode, mdTable, mdText } from './markdown.js';
import { verdictLine } from './report-text.js';

/** Where the check lives on a service, when it does. */
export interface ReportLinks {
  slug?: string;
  reportUrl?: string;
  evidenceUrl?: string;
}

function facts(url: string, result: CheckResult, links: ReportLinks): string {
  const rows: [string, string][] = [['Link', mdCode(url)]];
  rows.push(['Network', result.network ? `${mdText(result.network)} (${mdCode(result.networkId ?? '')})` : 'none detected']);
  if (result.networks.length > 1) rows.push(['Chain', result.networks.map((n) => `${mdText(n.name)} [${n.role}]`).join(' → ')]);
  rows.push(['Landing', `${result.finalStatus ?? '—'} ${result.finalUrl ? mdCode(result.finalUrl) : '—'}`]);
  const tp = result.trackingParameters;
  if (tp.expected.length > 0) {
    rows.push([
      'Click id',
      tp.present.length > 0
        ? `present (${tp.present.map(mdCode).join(', ')})`
        : `**missing** (expected ${tp.expected.map(mdCode).join(' or ')})`,
    ]);
  }
  if (links.slug) rows.push(['Slug', `${mdCode(links.slug)} (\`trackcheck report ${links.slug}\`)`]);
  if (links.reportUrl) rows.push(['Report', `<${links.reportUrl}>`]);
  if (links.evidenceUrl) rows.push(['Evidence', `<${links.evidenceUrl}>`]);
  return mdTable(['', ''], rows);
}

function hops(result: CheckResult): string {
  const rows = result.hops.map((hop, i) => [
    String(i),
    hop.status === null ? mdText(hop.error ?? 'no response') : String(hop.status),
    hop.kind,
    `${Math.round(hop.timeMs)} ms`,
    mdCode(hop.url),
    hop.network ? mdText(hop.network.name) : '',
    [...hop.paramsAdded.map((p) => `+${p}`), ...hop.paramsRemoved.map((p) => `-${p}`)].map(mdCode).join(' '),
  ]);
  const title = `## Hops (${result.redirectCount} redirect${result.redirectCount === 1 ? '' : 's'}, ${Math.round(result.totalRedirectTimeMs)} ms)`;
  return `${title}\n\n${mdTable(['#', 'Status', 'Kind', 'Time', 'URL', 'Network', 'Parameters'], rows, ['r', 'l', 'l', 'r'])}`;
}

function cookies(result: CheckResult): string {
  if (result.cookies.length === 0) return '## Cookies (0)\n\nNone.';
  const rows = result.cookies.map((c) => [
    mdCode(c.name),
    mdCode(`${c.domain}${c.path}`),
    c.firstParty ? 'first-party' : 'third-party',
    c.expiryDays === null ? 'session' : `${c.expiryDays} days`,
    String(c.setByHop),
  ]);
  return `## Cookies (${result.cookies.length})\n\n${mdTable(['Cookie', 'Domain', 'Party', 'Lifetime', 'Set by hop'], rows, ['l', 'l', 'l', 'r', 'r'])}`;
}

function consent(result: CheckResult): string | null {
  if (!result.consent) return null;
  const rows = result.consent.scenarios.map((s) => [
    s.scenario,
    s.clickIdPresent ? 'present' : 'absent',
    s.attributionCookies.length > 0 ? s.attributionCookies.map(mdCode).join(', ') : 'none',
  ]);
  const platform = result.consent.platform ? mdText(result.consent.platform.name) : 'none recognised';
  return `## Consent banner: ${platform}\n\n${mdTable(['Scenario', 'Click id', 'Attribution cookies'], rows)}`;
}

function issues(result: CheckResult): string {
  if (result.issues.length === 0) return '## Issues (0)\n\nNone.';
  const items = result.issues.map((issue) => {
    const where = issue.hop === null ? '' : ` (hop ${issue.hop})`;
    return `- **${issue.severity}** ${mdCode(issue.code)}${where}: ${mdText(issue.title)}  \n  ${mdText(issue.description)}  \n  **Fix:** ${mdText(issue.fix)}`;
  });
  return `## Issues (${result.issues.length})\n\n${items.join('\n')}`;
}

export function formatMarkdownReport(url: string, result: CheckResult, links: ReportLinks = {}): string {
  const sections = [
    `# ${mdText(verdictLine(result))}`,
    `Health ${result.healthScore}/100 · ${result.mode} mode`,
    facts(url, result, links),
    hops(result),
    cookies(result),
    consent(result),
    issues(result),
  ];
  return `${sections.filter((s) => s !== null).join('\n\n')}\n`;
}
