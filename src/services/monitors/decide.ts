// What one finished monitor run means (CONTRACT.md section 8): the monitor's new state, and the one event to
// raise, if any. Pure: the scheduler stores the memory and the event, and schedules the confirming run.
import type { CheckView } from '../check-view.js';
import type { AlertChange, AlertEventType, JsonValue, MonitorState } from '../alerts/types.js';
import type { Verdict } from '../../contract/verdict.js';
import { isoAt } from '../../lib/iso-timestamp.js';

/** A run's state: `unknown` is a bot wall, a timeout or a failed check — a fact about the check, not the link. */
export type RunState = 'healthy' | 'broken' | 'unknown';

/** What change detection compares. JSON-serialisable: the caller stores it inside the monitor's memory. */
export interface RunFacts {
  slug: string;
  state: RunState;
  verdict: Verdict | null;
  /** `host/path` of the final URL, lower-cased host, no query: a new click id every run is not a change. */
  finalHostPath: string | null;
  /** The networks, aggregators and shorteners in the chain, in chain order, each once. */
  networks: string[];
  clickIdPresent: boolean | null;
  /** The HTTP status of the first hop a network or aggregator answered (null: none answered). */
  trackingHopStatus: number | null;
  /** Critical and warning issue codes, sorted, each once. */
  issueCodes: string[];
  willTrack: boolean | null;
  healthScore: number | null;
  finalUrl: string | null;
  completedAt: string | null;
}

export interface MonitorMemory {
  /** The state the API shows. */
  state: MonitorState;
  /** The last evaluated run, whatever its state. */
  last: RunFacts | null;
  /** The last run that saw the link itself (healthy or broken, and a broken one only once confirmed): what changes are measured against. */
  settled: RunFacts | null;
  /** When a run first looked broken after a healthy (or no) answer; the confirming run is due `confirmMs` later. */
  suspectSince: string | null;
}

export const INITIAL_MEMORY: MonitorMemory = { state: 'pending', last: null, settled: null, suspectSince: null };

export interface MonitorEventDraft {
  type: AlertEventType;
  changes: AlertChange[];
  checkSlug: string;
  previousCheckSlug: string | null;
}

export interface RunDecision {
  memory: MonitorMemory;
  event: MonitorEventDraft | null;
  /** Epoch ms of the confirming run, instead of the normal next run; null when none is needed. */
  confirmAt: number | null;
}

function hostPath(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    return `${parsed.host.toLowerCase()}${parsed.pathname}`;
  } catch {
    return null;
  }
}

function runState(check: CheckView): RunState {
  if (check.status !== 'completed' || check.verdict === null || check.verdict === 'could_not_verify') return 'unknown';
  return check.willTrack === true ? 'healthy' : 'broken';
}

/** The facts of a finished check (a queued or running one reads as `unknown`). */
export function runFacts(check: CheckView): RunFacts {
  const trackingHop = check.hops.find((hop) => hop.network !== null && hop.network.role !== 'shortener' && hop.status !== null);
  const severe = check.issues.filter((issue) => issue.severity === 'critical' || issue.severity === 'warning');
  return {
    slug: check.slug,
    state: runState(check),
    verdict: check.verdict,
    finalHostPath: hostPath(check.finalUrl),
    networks: [...new Set(check.networks.map((network) => network.id))],
    clickIdPresent: check.trackingParameterPresent,
    trackingHopStatus: trackingHop?.status ?? null,
    issueCodes: [...new Set(severe.map((issue) => issue.code))].sort(),
    willTrack: check.willTrack,
    healthScore: check.healthScore,
    finalUrl: check.finalUrl,
    completedAt: check.completedAt,
  };
}

/** The fields a `monitor.changed` compares, in the order an alert lists them. */
const COMPARED = ['finalHostPath', 'networks', 'clickIdPresent', 'trackingHopStatus', 'issueCodes'] as const;

const same = (a: JsonValue, b: JsonValue) => JSON.stringify(a) === JSON.stringify(b);

/** What differs between two runs that both saw the link (never a state: the caller adds that). */
export function chainChanges(before: RunFacts, after: RunFacts): AlertChange[] {
  return COMPARED.filter((field) => !same(before[field], after[field])).map((field) => ({ field, from: before[field], to: after[field] }));
}

function event(type: AlertEventType, facts: RunFacts, base: RunFacts | null, changes: AlertChange[]): MonitorEventDraft {
  return { type, changes, checkSlug: facts.slug, previousCheckSlug: base?.slug ?? null };
}

function stateChange(from: MonitorState, to: MonitorState): AlertChange {
  return { field: 'state', from, to };
}

/**
 * The decision for one run. `broken` pages only when a second run confirms it; `unknown` never pages and never
 * counts as a change (a bot wall on one run and not the next says nothing about the link); a recovery is measured
 * from the last confirmed broken run, however many unknown runs came between.
 */
export function decideRun(memory: MonitorMemory, facts: RunFacts, nowMs: number, confirmMs: number): RunDecision {
  const base = memory.settled;
  const settledState: MonitorState = base?.state ?? 'pending';
  if (facts.state === 'unknown') {
    // A confirming run that could not see the link confirms nothing; the next scheduled run looks again.
    return { memory: { ...memory, state: 'unknown', last: facts, suspectSince: null }, event: null, confirmAt: null };
  }
  const settle = (state: MonitorState): MonitorMemory => ({ state, last: facts, settled: facts, suspectSince: null });
  const diff = base === null ? [] : chainChanges(base, facts);

  if (facts.state === 'broken' && settledState !== 'broken') {
    if (memory.suspectSince === null) {
      return {
        memory: { ...memory, last: facts, suspectSince: isoAt(nowMs) },
        event: null,
        confirmAt: nowMs + confirmMs,
      };
    }
    return {
      memory: settle('broken'),
      event: event('monitor.broken', facts, base, [stateChange(settledState, 'broken'), ...diff]),
      confirmAt: null,
    };
  }
  if (facts.state === 'healthy' && settledState === 'broken') {
    return {
      memory: settle('healthy'),
      event: event('monitor.recovered', facts, base, [stateChange('broken', 'healthy'), ...diff]),
      confirmAt: null,
    };
  }
  // Same state as the last settled run (or the first healthy run): only a different chain is news.
  const changed = base !== null && diff.length > 0 ? event('monitor.changed', facts, base, diff) : null;
  return { memory: settle(facts.state), event: changed, confirmAt: null };
}
