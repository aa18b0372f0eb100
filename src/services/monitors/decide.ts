// TEMPORARY STUB of interface B (the lead's decide.ts replaces it on `git merge main`): the same signatures,
// a minimal change detection so the scheduler and its tests run end to end.
import type { CheckView } from '../check-view.js';
import type { AlertChange, AlertEventType, MonitorState } from '../alerts/types.js';

export interface RunFacts {
  slug: string;
  state: 'healthy' | 'broken' | 'unknown';
  finalHostPath: string | null;
  networks: string[];
  clickIdPresent: boolean | null;
  trackingHopStatus: number | null;
  issueCodes: string[];
  willTrack: boolean | null;
  healthScore: number | null;
  finalUrl: string | null;
  completedAt: string | null;
}

export function runFacts(check: CheckView): RunFacts {
  const state = check.verdict === 'could_not_verify' || check.status === 'failed' ? 'unknown' : check.willTrack ? 'healthy' : 'broken';
  let finalHostPath: string | null = null;
  try {
    if (check.finalUrl) finalHostPath = `${new URL(check.finalUrl).host}${new URL(check.finalUrl).pathname}`;
  } catch {
    finalHostPath = null;
  }
  return {
    slug: check.slug,
    state,
    finalHostPath,
    networks: check.networks.map((n) => n.id),
    clickIdPresent: check.trackingParameterPresent,
    trackingHopStatus: null,
    issueCodes: check.issues.filter((i) => i.severity !== 'info').map((i) => i.code).sort(),
    willTrack: check.willTrack,
    healthScore: check.healthScore,
    finalUrl: check.finalUrl,
    completedAt: check.completedAt,
  };
}

export interface MonitorMemory {
  state: MonitorState;
  last: RunFacts | null;
  suspectSince: string | null;
}

export const INITIAL_MEMORY: MonitorMemory = { state: 'pending', last: null, suspectSince: null };

export interface RunDecision {
  memory: MonitorMemory;
  event: { type: AlertEventType; changes: AlertChange[]; checkSlug: string; previousCheckSlug: string | null } | null;
  confirmAt: number | null;
}

export function decideRun(memory: MonitorMemory, facts: RunFacts, nowMs: number, confirmMs: number): RunDecision {
  const previous = memory.last?.slug ?? null;
  const change = (from: MonitorState): AlertChange[] => [{ field: 'state', from, to: facts.state }];
  if (facts.state === 'broken' && memory.state !== 'broken') {
    if (memory.suspectSince === null) {
      return { memory: { ...memory, suspectSince: new Date(nowMs).toISOString() }, event: null, confirmAt: nowMs + confirmMs };
    }
    return {
      memory: { state: 'broken', last: facts, suspectSince: null },
      event: { type: 'monitor.broken', changes: change(memory.state), checkSlug: facts.slug, previousCheckSlug: previous },
      confirmAt: null,
    };
  }
  const next: MonitorMemory = { state: facts.state, last: facts, suspectSince: null };
  if (facts.state === 'healthy' && memory.state === 'broken') {
    return { memory: next, event: { type: 'monitor.recovered', changes: change('broken'), checkSlug: facts.slug, previousCheckSlug: previous }, confirmAt: null };
  }
  return { memory: next, event: null, confirmAt: null };
}
