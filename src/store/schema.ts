// Table shapes as Kysely sees them. Timestamps are ISO-8601 UTC strings (`toISOString()`, fixed width, so they
// sort correctly as text) and booleans are 0/1 integers on both dialects: one representation, no per-dialect mapping.
import type { Generated } from 'kysely';

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface ChecksTable {
  slug: string;
  user_id: string | null;
  /** The batch, or the scan (scans.id), the check belongs to. */
  batch_id: string | null;
  url: string;
  check_type: string;
  status: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** JSON of the engine's CheckResult once completed. */
  result: string | null;
  error_code: string | null;
  error_message: string | null;
  view_count: Generated<number>;
  /** The verdict (CONTRACT.md section 7), stored when the check finishes so a batch's status never parses results. */
  verdict: string | null;
  /** JSON array of this link's cells of its batch's input columns (`batches.input_columns`), in their order. */
  input_values: string | null;
  /** The monitor whose run this check is (migration 007); null for every other check. */
  monitor_id: string | null;
}

export interface AnonymousUsageTable {
  ip: string;
  check_type: string;
  /** ISO week, e.g. 2026-W47. */
  week: string;
  count: number;
}

export interface BatchesTable {
  id: string;
  user_id: string;
  check_type: string;
  status: string;
  total: number;
  created_at: string;
  completed_at: string | null;
  /** Optional label, 1–100 characters. */
  name: string | null;
  /** JSON array of the names of the submitter's own columns carried to results.csv; null when none. */
  input_columns: string | null;
}

/** A page scan (CONTRACT.md section 9); its link checks are `checks` whose `batch_id` is the scan's id. */
export interface ScansTable {
  id: string;
  user_id: string;
  url: string;
  /** 0/1: read the links of the page rendered in the browser. */
  render: number;
  check_type: string;
  /** queued (page not read yet), running (links queued), completed, failed (no page could be read). */
  status: string;
  pages_scanned: number;
  links_found: number;
  /** Links checked (at most 500). */
  total: number;
  /** JSON array of the checked links: {page, url, text, rel[], slug}, in page order; null while queued. */
  links: string | null;
  /** JSON array of the page findings ({page, code, severity, title, description, fix, links}), set on completion. */
  findings: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  completed_at: string | null;
}

/** One row per check to run: the durable queue (see src/jobs/README.md). */
export interface JobsTable {
  check_slug: string;
  /** Host of the checked URL, for per-host politeness. */
  host: string;
  /** Who the check runs for: `user:<id>` or `ip:<address>` (a caller's share of the worker's slots is capped). */
  requester: string;
  /** 0 = interactive single check, 1 = batch: single checks never wait behind a 500-link batch. */
  priority: number;
  status: string;
  attempts: number;
  run_after: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  last_error: string | null;
  created_at: string;
}

/** Web tokens that must not work again before they expire (used sign-in links, signed-out sessions). */
export interface WebSpentTokensTable {
  id: string;
  kind: string;
  expires_at: string;
}

/** A saved link re-checked on a schedule (CONTRACT.md section 8). */
export interface MonitorsTable {
  id: string;
  user_id: string;
  url: string;
  check_type: string;
  name: string | null;
  interval_minutes: number;
  paused: number;
  /** JSON Channel[] (secrets included: every delivery signs with them). */
  channels: string;
  /** pending | healthy | broken | unknown, as the API shows it (also inside memory). */
  state: string;
  /** JSON MonitorMemory (services/monitors/decide.ts). */
  memory: string;
  created_at: string;
  last_run_at: string | null;
  /** When the next run is due; null while paused or deleted (the scheduler reads only due rows). */
  due_at: string | null;
  deleted_at: string | null;
}

/** A queued monitor run not yet evaluated; deleted in the transaction that evaluates it (exactly once). */
export interface MonitorPendingRunsTable {
  check_slug: string;
  monitor_id: string;
  created_at: string;
}

export interface MonitorEventsTable {
  id: string;
  monitor_id: string;
  type: string;
  created_at: string;
  check_slug: string;
  previous_check_slug: string | null;
  /** JSON AlertChange[]. */
  changes: string;
  /** JSON Channel[]: the channels as they were when the event was raised (a PATCH never redirects a retry). */
  channels: string;
  /** JSON DeliveryState[]. */
  deliveries: string;
  /** The earliest pending delivery's next attempt (or a delivering worker's lease end); null when all are done. */
  next_delivery_at: string | null;
  /** The token of the worker delivering now; its writes are conditional on it. */
  delivery_lease: string | null;
}

export interface Database {
  api_keys: ApiKeysTable;
  checks: ChecksTable;
  scans: ScansTable;
  anonymous_usage: AnonymousUsageTable;
  batches: BatchesTable;
  jobs: JobsTable;
  web_spent_tokens: WebSpentTokensTable;
  monitors: MonitorsTable;
  monitor_pending_runs: MonitorPendingRunsTable;
  monitor_events: MonitorEventsTable;
}
