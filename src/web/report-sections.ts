// The report page's detail sections: hop table, cookies, issues with fixes, consent scenarios, privacy tools.
// Every value goes through escapeHtml; URLs are shown as text, never as links (a click would be a real
// click on someone's tracking link).
import { agentName } from '../checker/privacy/catalogue.js';
import { revealInvisible } from '../checker/evidence.js';
import type { CookieRecord, Hop, Issue } from '../checker/types.js';
import type { ReportView } from '../services/reports.js';
import { escapeHtml } from './html.js';
import { tableRegion } from './tables.js';
import { formatMs, timeElement } from './time.js';

/** Escaped, with invisible and direction-changing characters shown as \uXXXX. */
export const text = (value: string) => escapeHtml(revealInvisible(value));

/** Prose from the issue catalogue, where `backticks` mark parameter names and values. */
export const prose = (value: string) => text(value).replace(/`([^`]+)`/g, '<code>$1</code>');

function paramList(hop: Hop): string {
  const added = hop.paramsAdded.map((p) => `+${p}`);
  const removed = hop.paramsRemoved.map((p) => `−${p}`);
  return [...added, ...removed].map(text).join(' ') || '<span class="muted">none</span>';
}

export function renderHopTable(hops: Hop[]): string {
  const rows = hops
    .map((hop, i) => {
      const status = hop.status === null ? `<span class="muted">${text(hop.error ?? 'no response')}</span>` : String(hop.status);
      const cookies = hop.cookies.map((c) => text(c.name)).join(', ') || '<span class="muted">none</span>';
      const location = hop.location === null ? '' : `<br><span class="muted">Location:</span> ${text(hop.location)}`;
      return `<tr><td>${i}</td><td>${status}</td><td>${text(hop.kind)}</td><td class="n">${formatMs(hop.timeMs)}</td><td>${hop.network ? text(hop.network.name) : '<span class="muted">-</span>'}</td><td class="u">${text(hop.url)}${location}</td><td>${paramList(hop)}</td><td>${cookies}</td></tr>`;
    })
    .join('\n');
  return tableRegion(
    'Hop table',
    `<table>
<caption class="muted">Every request the check made, in order</caption>
<thead><tr><th scope="col">#</th><th scope="col">Status</th><th scope="col">Kind</th><th scope="col">Time</th><th scope="col">Network</th><th scope="col">URL</th><th scope="col">Parameters</th><th scope="col">Cookies set</th></tr></thead>
<tbody>
${rows}
</tbody></table>`,
  );
}

function cookieRow(c: CookieRecord): string {
  const flags = [c.secure ? 'Secure' : '', c.httpOnly ? 'HttpOnly' : '', c.sameSite ? `SameSite=${c.sameSite}` : '']
    .filter(Boolean)
    .join(' ');
  const expires = c.expiresAt === null ? 'session' : timeElement(c.expiresAt);
  const life = c.expiryDays === null ? '<span class="muted">session</span>' : `${c.expiryDays} days`;
  return `<tr><td><code>${text(c.name)}</code></td><td>${text(c.domain)}</td><td>${text(c.path)}</td><td>${expires}</td><td>${life}</td><td>${c.firstParty ? 'first-party' : 'third-party'}</td><td>${escapeHtml(flags) || '<span class="muted">none</span>'}</td><td>${c.setByHop}</td></tr>`;
}

export function renderCookies(report: ReportView): string {
  if (report.cookies.length === 0) {
    return '<p>No cookies were set during the chain.</p>';
  }
  return tableRegion(
    'Cookie table',
    `<table>
<caption class="muted">Cookies set during the chain (names, domains and lifetimes only: values are never stored)</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Domain</th><th scope="col">Path</th><th scope="col">Expires</th><th scope="col">Lifetime</th><th scope="col">Party</th><th scope="col">Flags</th><th scope="col">Hop</th></tr></thead>
<tbody>
${report.cookies.map(cookieRow).join('\n')}
</tbody></table>`,
  );
}

function issueItem(issue: Issue): string {
  const where = issue.hop === null ? '' : ` · hop ${issue.hop}`;
  return `<li class="sev-${escapeHtml(issue.severity)}">
<p><span class="badge b-${escapeHtml(issue.severity)}">${escapeHtml(issue.severity)}</span><code>${text(issue.code)}</code><span class="muted">${where}</span></p>
<h3>${prose(issue.title)}</h3>
<p>${prose(issue.description)}</p>
<p><strong>How to fix:</strong> ${prose(issue.fix)}</p>
</li>`;
}

export function renderIssues(issues: Issue[]): string {
  if (issues.length === 0) return '<p>No issues found.</p>';
  return `<ol class="issues">\n${issues.map(issueItem).join('\n')}\n</ol>`;
}

const SCENARIO_NAMES: Record<string, string> = { no_interaction: 'No interaction', accept_all: 'Accept all', reject_all: 'Reject all' };

export function renderConsent(report: ReportView): string {
  const consent = report.consent;
  if (consent === null) return '';
  const platform = consent.platform ? text(consent.platform.name) : 'none detected';
  const rows = consent.scenarios
    .map(
      (s) =>
        `<tr><td>${escapeHtml(SCENARIO_NAMES[s.scenario] ?? s.scenario)}</td><td>${s.clickIdPresent ? 'yes' : 'no'}</td><td>${s.attributionCookies.map(text).join(', ') || '<span class="muted">none</span>'}</td></tr>`,
    )
    .join('\n');
  return `<section aria-labelledby="consent-h"><h2 id="consent-h">Consent banner</h2><p>Platform: ${platform}</p>
${tableRegion(
  'Consent scenarios',
  `<table><thead><tr><th scope="col">Scenario</th><th scope="col">Click id at landing</th><th scope="col">Attribution cookies</th></tr></thead>
<tbody>
${rows}
</tbody></table>`,
)}</section>`;
}

const yes = 'yes';
const no = '<strong>no</strong>';

/** "Who this link reaches" (CONTRACT.md section 10): each browser and blocker, and what it does to the link. */
export function renderPrivacy(report: ReportView): string {
  const privacy = report.privacy;
  if (privacy === null || privacy.length === 0) return '';
  const rows = privacy
    .map((entry) => {
      const removed =
        entry.strippedParameters.length > 0
          ? `<code>${entry.strippedParameters.map(text).join(', ')}</code>`
          : '<span class="muted">nothing</span>';
      const cookie = entry.cookieLifetimeDays === null ? '<span class="muted">none</span>' : `${entry.cookieLifetimeDays} days`;
      return `<tr><th scope="row">${escapeHtml(agentName(entry.agent))}</th><td>${entry.trackerVisited ? yes : no}</td><td>${entry.clickIdSurvives ? yes : no}</td><td>${removed}</td><td>${cookie}</td></tr>`;
    })
    .join('\n');
  return `<section aria-labelledby="privacy-h"><h2 id="privacy-h">Who this link reaches</h2>
<p>What each browser and privacy extension does to this link when a shopper clicks it. A default Chrome is the verdict above; the others are what shoppers who chose them get. The rules and their sources are listed in trackcheck's <code>docs/privacy.md</code>.</p>
${tableRegion(
  'Who this link reaches',
  `<table><thead><tr><th scope="col">Browser or extension</th><th scope="col">Network hop runs</th><th scope="col">Click id arrives</th><th scope="col">Removes</th><th scope="col">Attribution cookie lives</th></tr></thead>
<tbody>
${rows}
</tbody></table>`,
)}</section>`;
}
