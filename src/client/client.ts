// The typed client: one method per API operation (see operations.ts), cursor iterators, and waits for checks,
// batches and scans. Runs wherever a global fetch exists (Node 20+, browsers, workers); everything time-related is injectable.
import { TrackcheckApiError, TrackcheckTimeoutError } from './errors.js';
import { OPERATIONS, type OperationName } from './operations.js';
import { paginate } from './paginate.js';
import { DEFAULT_RETRY, type RetryOptions } from './retry.js';
import {
  defaultSleep,
  sendRequest,
  type FetchLike,
  type RawResponse,
  type RequestSpec,
  type RetryEvent,
  type Sleep,
  type TransportOptions,
} from './transport.js';
import type {
  Batch,
  Check,
  CreateBatchInput,
  CreateMonitorInput,
  DeletedMonitor,
  ListMonitorsParams,
  Monitor,
  MonitorEvent,
  UpdateMonitorInput,
  CreateCheckInput,
  CreateKeyInput,
  CreatedCheck,
  CreatedKey,
  Health,
  KeySummary,
  ListBatchesParams,
  ListChecksParams,
  Page,
  Report,
  RevokedKey,
  Scan,
  CreateScanInput,
  ListScansParams,
} from './types.js';

export interface TrackcheckClientOptions {
  /** e.g. `https://trackcheck.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** `pg_live_…`; or `sessionToken`; neither = anonymous (only checks and reports allow that). */
  apiKey?: string;
  sessionToken?: string;
  /** Default: the global fetch. */
  fetch?: FetchLike;
  /** Partial overrides of DEFAULT_RETRY, or false to never retry. */
  retry?: Partial<RetryOptions> | false;
  /** Per attempt; default 60 s (POST /v1/checks may hold the request for the service's sync wait, 25 s by default). */
  timeoutMs?: number;
  /** Injectable time: tests (and callers with their own scheduler) never wait real time. */
  sleep?: Sleep;
  now?: () => number;
  random?: () => number;
  /** Default `trackcheck-client`; null sends none. */
  userAgent?: string | null;
  /** Called before every wait between attempts (log it, count it). */
  onRetry?: (event: RetryEvent) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface WaitOptions extends CallOptions {
  /** Between polls; default 1000 ms for a check, 2000 ms for a batch. */
  pollIntervalMs?: number;
  /** Give up after this long (TrackcheckTimeoutError); default 10 minutes for a check, no limit for a batch. */
  timeoutMs?: number;
}

export interface ScanWaitOptions extends WaitOptions {
  /** Called with every polled state of the scan. */
  onProgress?: (scan: Scan) => void;
}

export interface BatchWaitOptions extends WaitOptions {
  /** Every poll's batch, finished or not. */
  onProgress?: (batch: Batch) => void;
}

const isFinishedCheck = (check: Check) => check.status === 'completed' || check.status === 'failed';

function unwrap<T>(response: RawResponse, operation: OperationName): T {
  const body = response.body;
  if (typeof body !== 'object' || body === null || !('data' in body)) {
    const { method, path } = OPERATIONS[operation];
    throw new TrackcheckApiError({
      status: response.status,
      type: 'api_error',
      code: 'invalid_response',
      message: `${method} ${path} answered ${response.status} without a JSON {"data": …} body`,
      requestId: response.headers.get('x-request-id'),
      retryAfter: null,
      attempts: 1,
      method,
      path,
    });
  }
  return body.data as T;
}

export class TrackcheckClient {
  readonly keys;
  readonly checks;
  readonly reports;
  readonly batches;
  readonly scans;
  readonly monitors;
  private readonly transport: TransportOptions;

  constructor(options: TrackcheckClientOptions) {
    if (options.apiKey !== undefined && options.sessionToken !== undefined) {
      throw new TypeError('TrackcheckClient: pass apiKey or sessionToken, not both');
    }
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new TypeError('TrackcheckClient: no global fetch; pass options.fetch');
    this.transport = {
      baseUrl: new URL(options.baseUrl).href.replace(/\/+$/, ''),
      token: options.apiKey ?? options.sessionToken ?? null,
      fetch: fetchImpl,
      sleep: options.sleep ?? defaultSleep,
      now: options.now ?? Date.now,
      random: options.random ?? Math.random,
      retry: options.retry === false ? { ...DEFAULT_RETRY, maxAttempts: 1 } : { ...DEFAULT_RETRY, ...options.retry },
      timeoutMs: options.timeoutMs ?? 60_000,
      userAgent: options.userAgent === undefined ? 'trackcheck-client' : options.userAgent,
      onRetry: options.onRetry,
    };
    const call = this.call.bind(this);
    const json = async <T>(operation: OperationName, spec: Partial<RequestSpec>) => unwrap<T>(await call(operation, spec), operation);
    const page = async <T>(operation: OperationName, query: { limit?: number; cursor?: string } | undefined, o?: CallOptions) =>
      (await call(operation, { query, signal: o?.signal })).body as Page<T>;

    this.keys = {
      /** Session token only (an API key gets 403 session_token_required); `key` is shown only here. */
      create: (input: CreateKeyInput, o?: CallOptions) => json<CreatedKey>('keys.create', { body: input, signal: o?.signal }),
      list: (o?: CallOptions) => json<KeySummary[]>('keys.list', { signal: o?.signal }),
      revoke: (id: string, o?: CallOptions) => json<RevokedKey>('keys.revoke', { params: { id }, signal: o?.signal }),
    };

    this.checks = {
      /** 201 → finished; 202 → still queued/running: poll with `get` or `waitFor`. Never retried on 5xx (see retry.ts). */
      create: async (input: CreateCheckInput, o?: CallOptions): Promise<CreatedCheck> => {
        const response = await call('checks.create', { body: input, signal: o?.signal });
        return { check: unwrap<Check>(response, 'checks.create'), finished: response.status === 201 };
      },
      list: (params?: ListChecksParams, o?: CallOptions) => page<Check>('checks.list', params, o),
      /** Every check of the caller, newest first, fetching `pageSize` (default 100) per request. */
      iterate: (params?: { pageSize?: number }, o?: CallOptions) =>
        paginate<Check>((cursor) => page<Check>('checks.list', { limit: params?.pageSize ?? 100, cursor }, o)),
      get: (slug: string, o?: CallOptions) => json<Check>('checks.get', { params: { slug }, signal: o?.signal }),
      /** Polls until the check is completed or failed. */
      waitFor: (slug: string, o?: WaitOptions) => this.waitForCheck(slug, o),
      /** create + waitFor: the finished check. */
      run: async (input: CreateCheckInput, o?: WaitOptions): Promise<Check> => {
        const created = await this.checks.create(input, o);
        return created.finished ? created.check : this.waitForCheck(created.check.slug, o);
      },
    };

    this.reports = {
      /** Counts one view (viewCount in the answer includes it). */
      get: (slug: string, o?: CallOptions) => json<Report>('reports.get', { params: { slug }, signal: o?.signal }),
      /** The plain-text evidence file; does not count a view. */
      evidence: async (slug: string, o?: CallOptions) =>
        String((await call('reports.evidence', { params: { slug }, accept: 'text', signal: o?.signal })).body),
    };

    this.batches = {
      /** 1–500 links; all or nothing. Retried on 429 and 503 (nothing was created), never on other 5xx. */
      create: (input: CreateBatchInput, o?: CallOptions) => json<Batch>('batches.create', { body: input, signal: o?.signal }),
      list: (params?: ListBatchesParams, o?: CallOptions) => page<Batch>('batches.list', params, o),
      iterate: (params?: { pageSize?: number }, o?: CallOptions) =>
        paginate<Batch>((cursor) => page<Batch>('batches.list', { limit: params?.pageSize ?? 100, cursor }, o)),
      get: (id: string, o?: CallOptions) => json<Batch>('batches.get', { params: { id }, signal: o?.signal }),
      /** RFC 4180 CSV text, one row per link in submission order. */
      resultsCsv: async (id: string, o?: CallOptions) =>
        String((await call('batches.resultsCsv', { params: { id }, accept: 'text', signal: o?.signal })).body),
      /** Polls until the batch is completed. */
      waitFor: (id: string, o?: BatchWaitOptions) => this.waitForBatch(id, o),
    };

    this.scans = {
      /** A page or sitemap URL; at most 3 unfinished scans per user (409 too_many_scans). */
      create: (input: CreateScanInput, o?: CallOptions) => json<Scan>('scans.create', { body: input, signal: o?.signal }),
      list: (params?: ListScansParams, o?: CallOptions) => page<Scan>('scans.list', params, o),
      iterate: (params?: { pageSize?: number }, o?: CallOptions) =>
        paginate<Scan>((cursor) => page<Scan>('scans.list', { limit: params?.pageSize ?? 100, cursor }, o)),
      get: (id: string, o?: CallOptions) => json<Scan>('scans.get', { params: { id }, signal: o?.signal }),
      /** RFC 4180 CSV text, one row per checked link in page order. */
      resultsCsv: async (id: string, o?: CallOptions) =>
        String((await call('scans.resultsCsv', { params: { id }, accept: 'text', signal: o?.signal })).body),
      /** Polls until the scan is completed or failed. */
      waitFor: (id: string, o?: ScanWaitOptions) => this.waitForScan(id, o),
    };
    this.monitors = {
      /** The first run is queued at once; 409 too_many_monitors past the per-user limit. */
      create: (input: CreateMonitorInput, o?: CallOptions) => json<Monitor>('monitors.create', { body: input, signal: o?.signal }),
      list: (params?: ListMonitorsParams, o?: CallOptions) => page<Monitor>('monitors.list', params, o),
      iterate: (params?: { pageSize?: number }, o?: CallOptions) =>
        paginate<Monitor>((cursor) => page<Monitor>('monitors.list', { limit: params?.pageSize ?? 100, cursor }, o)),
      get: (id: string, o?: CallOptions) => json<Monitor>('monitors.get', { params: { id }, signal: o?.signal }),
      /** Any of name, interval_minutes, paused, channels (channels replace the monitor's list). */
      update: (id: string, input: UpdateMonitorInput, o?: CallOptions) =>
        json<Monitor>('monitors.update', { params: { id }, body: input, signal: o?.signal }),
      /** Its checks stay readable by slug. */
      delete: (id: string, o?: CallOptions) => json<DeletedMonitor>('monitors.delete', { params: { id }, signal: o?.signal }),
      /** Queues a run now (202). */
      run: (id: string, o?: CallOptions) => json<Monitor>('monitors.run', { params: { id }, signal: o?.signal }),
      /** The monitor's events, newest first. */
      events: async (id: string, params?: ListMonitorsParams, o?: CallOptions) =>
        (await call('monitors.events', { params: { id }, query: params, signal: o?.signal })).body as Page<MonitorEvent>,
    };
  }

  /** GET /health (never rate limited; a 503 means the database is unreachable). */
  async health(o?: CallOptions): Promise<Health> {
    return (await this.call('health', { signal: o?.signal })).body as Health;
  }

  private call(operation: OperationName, spec: Partial<RequestSpec>): Promise<RawResponse> {
    const { method, path } = OPERATIONS[operation];
    return sendRequest(this.transport, { accept: 'json', ...spec, method, template: path });
  }

  private async poll<T>(
    read: () => Promise<T>,
    done: (value: T) => boolean,
    what: string,
    o: WaitOptions,
    defaults: { interval: number; timeout: number },
  ): Promise<T> {
    const interval = o.pollIntervalMs ?? defaults.interval;
    const deadline = this.transport.now() + (o.timeoutMs ?? defaults.timeout);
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (this.transport.now() + interval > deadline) throw new TrackcheckTimeoutError(`${what} is still not finished`);
      await this.transport.sleep(interval, o.signal);
    }
  }

  private waitForCheck(slug: string, o: WaitOptions = {}): Promise<Check> {
    return this.poll(() => this.checks.get(slug, o), isFinishedCheck, `check ${slug}`, o, { interval: 1000, timeout: 600_000 });
  }

  private waitForScan(id: string, o: ScanWaitOptions = {}): Promise<Scan> {
    const read = async () => {
      const scan = await this.scans.get(id, o);
      o.onProgress?.(scan);
      return scan;
    };
    return this.poll(read, (s) => s.status === 'completed' || s.status === 'failed', `scan ${id}`, o, {
      interval: 2000,
      timeout: Number.POSITIVE_INFINITY,
    });
  }

  private waitForBatch(id: string, o: BatchWaitOptions = {}): Promise<Batch> {
    const read = async () => {
      const batch = await this.batches.get(id, o);
      o.onProgress?.(batch);
      return batch;
    };
    return this.poll(read, (b) => b.status === 'completed', `batch ${id}`, o, { interval: 2000, timeout: Number.POSITIVE_INFINITY });
  }
}
