// The readable terminal report of `trackcheck check`: verdict first, then hops, cookies, issues with fixes.
import { UNVERIFIED_CODES } from '../checker/analysis/score.js';
import type { CheckResult } from '../checker/types.js';
import { decideVerdict } from '../checker/analysis/verdict.js';

export function verdictLine(result: CheckResult): string {
  switch (decideVerdict(result)) {
    case 'will_track':
      return 'WILL TRACK';
    case 'will_not_track':
      return 'WILL NOT TRACK';
    case 'no_tracking_found':
      return 'NO TRACKING FOUND — no affiliate network or aggregator handles this click';
    case 'could_not_verify': {
      const reason = result.issues.find((i) => UNVERIFIED_CODES.includes(i.code));
      return `COULD NOT VERIFY — ${reason ? reason.title.replace(/^Could not verify: /, '') : 'the real landing page could not be seen'}`;
    }
  }
}

export function formatReport(url: string, result: CheckResult): string {
  const lines: string[] = [];
  lines.push(`${verdictLine(result)}   health ${result.healthScore}/100`);
  lines.push(`link     ${url}`);
  lines.push(`network  ${result.network ? `${result.network} (${result.networkId})` : 'none detected'}`);
  if (result.networks.length > 1) lines.push(`chain    ${result.networks.map((n) => `${n.name} [${n.role}]`).join(' → ')}`);
  lines.push(`landing  ${result.finalStatus ?? '—'} ${result.finalUrl ?? '—'}`);
  const tp = result.trackingParameters;
  if (tp.expected.length > 0) {
    lines.push(
      `click id ${tp.present.length > 0 ? `present (${tp.present.join(', ')})` : `MISSING (expected ${tp.expected.join(' or ')})`}`,
    );
  }
  lines.push('', `Hops (${result.redirectCount} redirects, ${Math.round(result.totalRedirectTimeMs)} ms)`);
  result.hops.forEach((hop, i) => {
    const status = hop.status === null ? (hop.error ?? 'no response') : String(hop.status);
    const network = hop.network ? `  [${hop.network.name}]` : '';
    lines.push(
      `  ${String(i).padStart(2)}. ${status.padEnd(4)} ${hop.kind.padEnd(12)} ${String(Math.round(hop.timeMs)).padStart(5)} ms  ${hop.url}${network}`,
    );
    const params = [...hop.paramsAdded.map((p) => `+${p}`), ...hop.paramsRemoved.map((p) => `-${p}`)];
    if (params.length > 0) lines.push(`      params ${params.join(' ')}`);
  });
  lines.push('', `Cookies (${result.cookies.length})`);
  for (const c of result.cookies) {
    const life = c.expiryDays === null ? 'session' : `${c.expiryDays} days`;
    lines.push(`  ${c.firstParty ? 'first-party' : 'third-party'}  ${c.name}  ${c.domain}${c.path}  ${life}  (hop ${c.setByHop})`);
  }
  if (result.cookies.length === 0) lines.push('  none');
  if (result.consent) {
    lines.push('', `Consent banner: ${result.consent.platform?.name ?? 'none recognised'}`);
    for (const s of result.consent.scenarios) {
      const cookies = s.attributionCookies.length > 0 ? s.attributionCookies.join(', ') : 'no attribution cookie';
      lines.push(`  ${s.scenario.padEnd(15)} click id ${s.clickIdPresent ? 'present' : 'absent '}  ${cookies}`);
    }
  }
  lines.push('', `Issues (${result.issues.length})`);
  for (const issue of result.issues) {
    lines.push(`  [${issue.severity}] ${issue.code}${issue.hop === null ? '' : ` (hop ${issue.hop})`}: ${issue.title}`);
    lines.push(`      ${issue.description}`);
    lines.push(`      fix: ${issue.fix}`);
  }
  if (result.issues.length === 0) lines.push('  none');
  return lines.join('\n');
}
