// Prometheus metrics of one process. A registry per context (not prom-client's global one), so several apps in
// one test process never share counters.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { BROWSER_STATES, type BrowserState } from './checker/browser/pool.js';

export interface Metrics {
  registry: Registry;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  countCheck(outcome: 'will_track' | 'wont_track' | 'failed', checkType: string): void;
  /** A request let through uncounted because the rate-limit store failed (fail-open): alert when this rises. */
  countUncountedRequest(): void;
  /** A monitor run evaluated, by the state it found. */
  countMonitorRun(state: string): void;
  /** A monitor event raised, by type. */
  countMonitorEvent(type: string): void;
  /** One alert delivery attempt, by channel type and outcome (delivered, retrying, failed). */
  countAlertDelivery(channelType: string, outcome: string): void;
  /** Sources read at scrape time (queue depth, browser pool state). */
  setQueueDepthSource(read: () => Promise<{ queued: number; running: number }>): void;
  /** The browser pool's own state(): the one source /health reads too. */
  setBrowserStateSource(read: () => BrowserState): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'trackcheck_process_' });
  const requests = new Counter({
    name: 'trackcheck_http_requests_total',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'trackcheck_http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const uncounted = new Counter({
    name: 'trackcheck_rate_limit_store_failures_total',
    help: 'Requests let through without a rate-limit count because the counter store (Redis) failed',
    registers: [registry],
  });
  const requestChildren = new Map<string, { count: { inc(): void }; time: { observe(value: number): void } }>();
  const checks = new Counter({
    name: 'trackcheck_checks_finished_total',
    help: 'Checks finished by this process, by outcome and check type',
    labelNames: ['outcome', 'check_type'],
    registers: [registry],
  });
  const monitorRuns = new Counter({
    name: 'trackcheck_monitor_runs_total',
    help: 'Monitor runs evaluated by this process, by the state the run found',
    labelNames: ['state'],
    registers: [registry],
  });
  const monitorEvents = new Counter({
    name: 'trackcheck_monitor_events_total',
    help: 'Monitor events raised by this process, by type',
    labelNames: ['type'],
    registers: [registry],
  });
  const alertDeliveries = new Counter({
    name: 'trackcheck_alert_delivery_attempts_total',
    help: 'Alert delivery attempts made by this process, by channel type and outcome (delivered, retrying, failed)',
    labelNames: ['channel_type', 'outcome'],
    registers: [registry],
  });
  let readDepth: () => Promise<{ queued: number; running: number }> = async () => ({ queued: 0, running: 0 });
  new Gauge({
    name: 'trackcheck_queue_jobs',
    help: 'Jobs in the durable queue by state (whole database, all workers)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      try {
        const depth = await readDepth();
        this.set({ state: 'queued' }, depth.queued);
        this.set({ state: 'running' }, depth.running);
      } catch {
        // An unreachable database must not break the scrape; the gauge keeps its last value.
      }
    },
  });
  let readBrowser = (): BrowserState => 'not started';
  new Gauge({
    name: 'trackcheck_browser_pool_state',
    help: '1 for the browser pool state this process is in',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const current = readBrowser();
      for (const state of BROWSER_STATES) this.set({ state }, state === current ? 1 : 0);
    },
  });
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      // The label children are looked up once per (method, route, status): hashing the labels on every request
      // was a visible share of a cached read. Route templates keep the set bounded.
      const key = `${method} ${status} ${route}`;
      let child = requestChildren.get(key);
      if (child === undefined) {
        const labels = { method, route, status: String(status) };
        child = { count: requests.labels(labels), time: latency.labels(labels) };
        requestChildren.set(key, child);
      }
      child.count.inc();
      child.time.observe(seconds);
    },
    countCheck: (outcome, checkType) => checks.inc({ outcome, check_type: checkType }),
    countUncountedRequest: () => uncounted.inc(),
    countMonitorRun: (state) => monitorRuns.inc({ state }),
    countMonitorEvent: (type) => monitorEvents.inc({ type }),
    countAlertDelivery: (channelType, outcome) => alertDeliveries.inc({ channel_type: channelType, outcome }),
    setQueueDepthSource: (read) => {
      readDepth = read;
    },
    setBrowserStateSource: (read) => {
      readBrowser = read;
    },
  };
}
