// Small pieces the signed-in pages share: times, verdict badges, the page context.
import { VERDICT_LABELS, verdictKind, type VerdictKind } from '../checker/analysis/verdict.js';
import type { CheckView } from '../services/check-view.js';
import { escapeHtml } from './html.js';
import type { NavState } from './layout.js';
import { timeElement } from './time.js';

/** What every page needs besides its own data. */
export interface PageContext {
  version: string;
  nav: NavState;
  /** The CSRF token for this page's forms. */
  csrf: string;
}

/** `31 Jan 2025, 14:05 UTC` in a <time> element, the exact instant in its title (see time.ts). */
export function formatTime(iso: string | null, empty = 'never'): string {
  if (iso === null) return `<span class="muted">${escapeHtml(empty)}</span>`;
  return timeElement(iso);
}

const KIND_LABELS: Record<VerdictKind, string> = {
  ...VERDICT_LABELS,
  pending: 'Checking…',
  failed: 'Check failed',
};

export function verdictLabel(check: Pick<CheckView, 'status' | 'willTrack' | 'issues' | 'networks'>): { kind: VerdictKind; label: string } {
  const kind = verdictKind(check);
  return { kind, label: KIND_LABELS[kind] };
}

/** The verdict as a coloured badge linking to the report. */
export function verdictBadge(check: Pick<CheckView, 'slug' | 'status' | 'willTrack' | 'issues' | 'networks'>): string {
  const { kind, label } = verdictLabel(check);
  return `<a class="vbadge vb-${kind}" href="/r/${encodeURIComponent(check.slug)}">${escapeHtml(label)}</a>`;
}

/** Refills a form field after an error. */
export const attr = (value: string | undefined) => escapeHtml(value ?? '');
