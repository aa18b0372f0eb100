// The client's request and response types, derived from the TypeBox schemas the server validates and serialises
// with (and renders as /openapi.json), so the two cannot drift apart. Type-only imports: nothing of the server
// is loaded at run time.
import type { Static } from '@sinclair/typebox';
import type {
  Check as CheckSchema,
  CreateCheckBody,
  ListChecksQuery,
  CheckListResponse,
  Report as ReportSchema,
} from '../contract/check.js';
import type { Batch as BatchSchema, BatchListResponse, CreateBatchBody, ListBatchesQuery } from '../contract/batch.js';
import type { Scan as ScanSchema, ScanListResponse, CreateScanBody, ListScansQuery } from '../contract/scan.js';
import type {
  CreateKeyBody,
  CreatedKey as CreatedKeySchema,
  KeySummary as KeySummarySchema,
  RevokedKeyResponse,
} from '../contract/keys.js';
import type { ErrorEnvelope as ErrorEnvelopeSchema } from '../contract/common.js';
import type {
  CreateMonitorBody,
  DeletedMonitorResponse,
  Monitor as MonitorSchema,
  MonitorEvent as MonitorEventSchema,
  UpdateMonitorBody,
} from '../contract/monitor.js';

export type Check = Static<typeof CheckSchema>;
export type Report = Static<typeof ReportSchema>;
export type CheckStatus = Check['status'];
export type CheckType = Check['checkType'];
export type Hop = Check['hops'][number];
export type Issue = Check['issues'][number];
export type CheckCookie = Check['cookies'][number];
export type CreateCheckInput = Static<typeof CreateCheckBody>;
export type ListChecksParams = Static<typeof ListChecksQuery>;

export type Batch = Static<typeof BatchSchema>;
export type BatchStatus = Batch['status'];
export type BatchCheck = Batch['checks'][number];
export type CreateBatchInput = Static<typeof CreateBatchBody>;
export type ListBatchesParams = Static<typeof ListBatchesQuery>;

export type Scan = Static<typeof ScanSchema>;
export type ScanStatus = Scan['status'];
export type ScanLink = Scan['links'][number];
export type CreateScanInput = Static<typeof CreateScanBody>;
export type ListScansParams = Static<typeof ListScansQuery>;

export type CreateKeyInput = Static<typeof CreateKeyBody>;
export type CreatedKey = Static<typeof CreatedKeySchema>;
export type KeySummary = Static<typeof KeySummarySchema>;
export type RevokedKey = Static<typeof RevokedKeyResponse>['data'];

export type ErrorEnvelope = Static<typeof ErrorEnvelopeSchema>;

/** One page of a cursor listing: pass `nextCursor` back as `cursor` until it is null. */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

// Compile-time proof that the page shapes above are the server's list responses.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const assertType = <T extends true>(): T | undefined => undefined;
assertType<Same<Page<Batch>, Static<typeof BatchListResponse>>>();
assertType<Same<Page<Scan>, Static<typeof ScanListResponse>>>();
assertType<Same<Page<Check>['nextCursor'], Static<typeof CheckListResponse>['nextCursor']>>();

/**
 * GET /health. The route's schema is not exported by src/http/routes/health.ts, so this one is written out:
 * the fixed fields plus one string per component (rate-limit store, browser, …).
 */
export interface Health {
  /** `degraded`: serving, but the rate-limit store does not answer (the limits fail open meanwhile). */
  status: 'ok' | 'degraded';
  version: string;
  uptimeSeconds: number;
  database: string;
  rateLimitStore: 'redis' | 'memory' | 'unavailable';
  [component: string]: string | number;
}

/** The outcome of POST /v1/checks: `finished` false means 202, poll with `checks.get` or `checks.waitFor`. */
export interface CreatedCheck {
  check: Check;
  finished: boolean;
}

// Monitors (CONTRACT.md section 8). Written out from the contract: their TypeBox schemas come with the API routes.
export type Monitor = Static<typeof MonitorSchema>;
export type MonitorState = Monitor['state'];
export type MonitorChannel = Monitor['channels'][number];
/** A channel as submitted (the schema leaves them to the service, which names the offending entry): a webhook's `secret` is write-only. */
export type MonitorChannelInput =
  { type: 'webhook'; url: string; secret?: string } | { type: 'slack'; url: string } | { type: 'email'; to: string };
export type CreateMonitorInput = Omit<Static<typeof CreateMonitorBody>, 'channels'> & { channels?: MonitorChannelInput[] };
export type UpdateMonitorInput = Omit<Static<typeof UpdateMonitorBody>, 'channels'> & { channels?: MonitorChannelInput[] };
export type MonitorEvent = Static<typeof MonitorEventSchema>;
export type MonitorEventType = MonitorEvent['type'];
export type DeletedMonitor = Static<typeof DeletedMonitorResponse>['data'];
export type ListMonitorsParams = { limit?: number; cursor?: string };
