// The public report page at /r/<slug>: verdict banner (with "Check again"), issues and fixes, the link, details, the hop
// picture, evidence, sharing and "Monitor this link".
import { verdictKind, type VerdictKind } from '../checker/analysis/verdict.js';
import { UNVERIFIED_CODES } from '../checker/analysis/score.js';
import type { ReportView } from '../services/reports.js';
import { hiddenCsrfField } from './csrf.js';
import { escapeHtml } from './html.js';
import { formatMs, timeElement } from './time.js';
import { hostOf, renderHopPicture, summarizeHops, clickIdStates } from './hop-picture.js';
import { renderPage, type NavState } from './layout.js';
import { prose, renderConsent, renderCookies, renderHopTable, renderIssues, renderPrivacy, text } from './report-sections.js';

/** Seconds between reloads of a running check's page. */
export const PROGRESS_REFRESH_SECONDS = 2;

const HEADLINES: Record<VerdictKind, { short: string; headline: string; mark: string }> = {
  will_track: { short: 'Will track', headline: 'This link will track', mark: '✓' },
  will_not_track: { short: 'Will not track', headline: 'This link will not track', mark: '✗' },
  could_not_verify: { short: 'Could not verify', headline: 'Could not verify this link', mark: '?' },
  no_tracking_found: { short: 'No tracking found', headline: 'No affiliate tracking found', mark: '–' },
  pending: { short: 'Checking', headline: 'Checking this link…', mark: '…' },
  failed: { short: 'Check failed', headline: 'The check could not run', mark: '!' },
};

function landingHost(r: ReportView): string {
  return r.finalUrl ? hostOf(r.finalUrl) : 'the landing page';
}

/** One sentence under the headline saying why. */
function explain(r: ReportView, kind: VerdictKind): string {
  const network = r.network ?? 'the network';
  switch (kind) {
    case 'pending':
      return `trackcheck is following the link hop by hop. This page refreshes every ${PROGRESS_REFRESH_SECONDS} seconds until the verdict is in.`;
    case 'failed':
      return r.error?.message ?? 'The checker could not run on this link.';
    case 'could_not_verify': {
      const issue = r.issues.find((i) => UNVERIFIED_CODES.includes(i.code));
      return issue ? issue.description : 'The real landing page could not be seen: the result is unknown, not broken.';
    }
    case 'no_tracking_found':
      return `The link lands on ${landingHost(r)} (${r.finalStatus ?? '-'}), but no affiliate network or aggregator handles the click, so nothing would be attributed. Use the tracking link from your network's dashboard.`;
    case 'will_not_track': {
      const critical = r.issues.find((i) => i.severity === 'critical') ?? r.issues[0];
      return critical ? `${critical.title}. The issues below say how to fix it.` : 'The click does not keep its attribution.';
    }
    case 'will_track': {
      const present = r.trackingParameters?.present ?? [];
      if (present.length > 0) return `The ${network} click id (${present.join(', ')}) reaches ${landingHost(r)}.`;
      return `${network}'s attribution survives in a first-party cookie on ${landingHost(r)}.`;
    }
  }
}

function facts(r: ReportView): string {
  const rows: [string, string][] = [];
  const chain = r.networks.length > 1 ? ` <span class="muted">(chain: ${r.networks.map((n) => text(n.name)).join(' → ')})</span>` : '';
  rows.push(['Network', r.network ? `${text(r.network)} <code>${text(r.networkId ?? '')}</code>${chain}` : 'none detected']);
  rows.push([
    'Landing page',
    r.finalUrl ? `${r.finalStatus ?? 'no response'} · <span class="mono">${text(r.finalUrl)}</span>` : 'not reached',
  ]);
  rows.push(['Redirects', `${r.redirectCount ?? 0} in ${formatMs(r.totalRedirectTimeMs ?? 0)}`]);
  const tp = r.trackingParameters;
  if (tp && tp.expected.length > 0) {
    rows.push([
      'Click id',
      tp.present.length > 0
        ? `present: <code>${tp.present.map(text).join(', ')}</code>`
        : `<strong>missing</strong> (expected <code>${tp.expected.map(text).join(' or ')}</code>)`,
    ]);
  }
  const life = r.cookieExpiryDays === null ? '' : ` (longest ${r.cookieExpiryDays} days)`;
  rows.push([
    'Cookies',
    `first-party ${r.firstPartyCookieSet ? 'set' : 'not set'}${life}; third-party ${r.thirdPartyCookieSet ? 'set' : 'not set'}`,
  ]);
  rows.push(['Health score', `${r.healthScore ?? '-'}/100`]);
  return `<dl class="facts">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

/** "Monitor this link": one click makes a monitor of this link and check type (signed in), else leads to sign-in. */
function monitorButton(r: ReportView, nav: NavState | undefined): string {
  if (!nav?.user || nav.csrf === undefined) {
    return `<a class="button secondary" href="/auth/signin?next=${encodeURIComponent(`/r/${r.slug}`)}">Monitor this link</a>`;
  }
  return `<form class="inline" method="post" action="/monitors">
${hiddenCsrfField(nav.csrf)}<input type="hidden" name="url" value="${escapeHtml(r.url)}"><input type="hidden" name="check_type" value="${escapeHtml(r.checkType)}">
<button type="submit" class="secondary">Monitor this link</button>
</form>`;
}

function shareSection(r: ReportView, nav: NavState | undefined): string {
  const views = `Viewed ${r.viewCount} time${r.viewCount === 1 ? '' : 's'}.`;
  return `<section class="share" aria-labelledby="share-h"><h2 id="share-h">Share and keep</h2>
<div class="actions">
<a class="button" href="/v1/reports/${escapeHtml(r.slug)}/evidence" download="evidence-${escapeHtml(r.slug)}.txt">Download evidence (.txt)</a>
<button type="button" class="secondary" hidden data-copy="${escapeHtml(r.reportUrl)}" data-field="share-link">Copy link</button>
${monitorButton(r, nav)}
</div>
<p><label for="share-link">Link to this report</label><br><input id="share-link" readonly value="${escapeHtml(r.reportUrl)}"></p>
<p class="muted">The evidence file lists every hop, cookie (names and lifetimes, never values) and issue, with a SHA-256 digest that verifies against this report: attach it to a commission dispute.</p>
<p class="muted" id="view-count">${views}</p>
</section>`;
}

/** What is wrong and how to fix it comes first, right under the verdict: the tables are the evidence behind it. */
function issuesSection(r: ReportView): string {
  return `<section aria-labelledby="issues-h"><h2 id="issues-h">Issues and fixes</h2>${renderIssues(r.issues)}</section>`;
}

/** Runs the same link and check type again as a new check, through the home page's form post (CSRF and all). */
function checkAgainForm(r: ReportView, csrf: string): string {
  return `<form class="again" method="post" action="/">
${hiddenCsrfField(csrf)}<input type="hidden" name="url" value="${escapeHtml(r.url)}"><input type="hidden" name="check_type" value="${escapeHtml(r.checkType)}">
<button type="submit" class="secondary">Check again</button>
</form>`;
}

function resultSections(r: ReportView): string {
  const expected = r.trackingParameters?.expected ?? [];
  const input = { hops: r.hops, expected, issues: r.issues };
  const states = clickIdStates(r.hops, expected);
  const caption = summarizeHops(input, states);
  return `<section aria-labelledby="facts-h"><h2 id="facts-h">Summary</h2>${facts(r)}</section>
<section aria-labelledby="hops-h"><h2 id="hops-h">Hop by hop</h2>
<figure>${renderHopPicture(input, { states, summary: caption })}
<figcaption>${text(caption)}</figcaption></figure>
${renderHopTable(r.hops)}
</section>
<section aria-labelledby="cookies-h"><h2 id="cookies-h">Cookies</h2>${renderCookies(r)}</section>
${renderConsent(r)}
${renderPrivacy(r)}`;
}

/** `csrf`: the token for the "Check again" form, shown on a finished report only. */
export function renderReportPage(r: ReportView, version: string, nav?: NavState, csrf?: string): string {
  const kind = verdictKind(r);
  const head = HEADLINES[kind];
  const why = explain(r, kind);
  const subject = `${r.network ? `${r.network} link` : 'Tracking link'}${r.finalUrl ? ` to ${landingHost(r)}` : ''}`;
  const score = r.healthScore === null ? '' : ` Health ${r.healthScore}/100, ${r.redirectCount ?? 0} redirects, ${r.issues.length} issues.`;
  const reason = kind === 'will_not_track' ? why.replace(' The issues below say how to fix it.', '') : why;
  const pending = kind === 'pending';
  const banner = `<section class="verdict v-${kind}" aria-labelledby="verdict-h" ${pending ? 'aria-live="polite"' : ''}>
<p class="eyebrow">Tracking link report · ${escapeHtml(r.checkType)} check</p>
<h1 id="verdict-h"><span aria-hidden="true">${head.mark}</span> ${escapeHtml(head.headline)}</h1>
<p>${prose(why)}</p>
${r.healthScore === null ? '' : `<p class="score">Health score <strong>${r.healthScore}</strong>/100</p>`}
${pending ? `<progress aria-label="Check in progress"></progress><p>Status: ${escapeHtml(r.status)}</p>` : ''}
${!pending && csrf !== undefined ? checkAgainForm(r, csrf) : ''}
</section>`;
  const link = `<section aria-labelledby="link-h"><h2 id="link-h">The link checked</h2><p class="url">${text(r.url)}</p>
<p class="muted">Submitted ${timeElement(r.createdAt)}${r.completedAt ? ` · finished ${timeElement(r.completedAt)}` : ''}${r.mode ? ` · ${escapeHtml(r.mode)} engine` : ''}</p></section>`;
  const issues = !pending && (r.hops.length > 0 || r.issues.length > 0) ? issuesSection(r) : '';
  const main = [banner, issues, link, r.hops.length > 0 ? resultSections(r) : '', pending ? '' : shareSection(r, nav)].join('\n');
  return renderPage(
    {
      title: `${head.short}: ${subject} | trackcheck`,
      description: `${head.short}: ${subject}. ${reason.replace(/`/g, '')}${score}`.slice(0, 300),
      url: r.reportUrl,
      refreshSeconds: pending ? PROGRESS_REFRESH_SECONDS : undefined,
      script: !pending,
      nav,
    },
    main,
    version,
  );
}
