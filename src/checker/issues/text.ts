// Shared shapes and wording helpers for the issue catalogue (catalogue.ts and its parts in this folder).
import type { CheckMode, Severity } from '../types.js';

/** What a finding knows; each description uses what it needs and falls back to generic wording. */
export interface IssueDetails {
  hop?: number | null;
  /** Further hop indices the finding concerns (e.g. every plain-http hop). */
  hops?: number[];
  params?: string[];
  /** Display name of the network concerned. */
  network?: string | null;
  /** Display names, in chain order, for stacked trackers. */
  networks?: string[];
  /** Browsers and extensions concerned, each in words (privacy findings). */
  agents?: string[];
  url?: string | null;
  /** A second URL: the requested deep link, or the URL after the hop. */
  otherUrl?: string | null;
  status?: number | null;
  error?: string | null;
  address?: string | null;
  timeMs?: number;
  totalMs?: number;
  tokens?: string[];
  pageTitle?: string | null;
  /** What the network documents its answer to mean (a refusal it answers on its own hop). */
  meaning?: string | null;
  mode?: CheckMode;
  /** Variant of a finding that shares a code (e.g. a click id that arrives empty). */
  variant?: 'empty' | 'placeholder' | 'duplicate' | 'changed' | 'downgrade' | null;
}

export interface IssueSpec {
  severity: Severity;
  title: string;
  describe: (d: IssueDetails) => string;
  fix: (d: IssueDetails) => string;
}

export const list = (items: readonly string[] | undefined, fallback: string): string =>
  items !== undefined && items.length > 0 ? items.map((item) => `\`${item}\``).join(', ') : fallback;
export const hopName = (hop: number | null | undefined): string => (hop === null || hop === undefined ? 'a hop' : `hop ${hop}`);
export const nextHop = (hop: number | null | undefined): string => (hop === null || hop === undefined ? 'the next hop' : `hop ${hop + 1}`);
export const net = (d: IssueDetails): string => d.network ?? 'the network';
export const at = (url: string | null | undefined): string => (url ? ` (${url})` : '');
