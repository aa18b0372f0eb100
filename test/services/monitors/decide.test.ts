import { describe, expect, it } from 'vitest';
import type { CheckView } from '../../../src/services/check-view.js';
import type { Hop, Issue, NetworkRef } from '../../../src/checker/types.js';
import { checkVerdict } from '../../../src/checker/analysis/verdict.js';
import {
  chainChanges,
  decideRun,
  INITIAL_MEMORY,
  runFacts,
  type MonitorMemory,
  type RunFacts,
} from '../../../src/services/monitors/decide.js';

const AWIN: NetworkRef = { id: 'awin', name: 'Awin', role: 'network' };
const BITLY: NetworkRef = { id: 'bitly', name: 'Bitly', role: 'shortener' };

function hop(url: string, status: number | null, network: NetworkRef | null = null): Hop {
  return {
    url,
    status,
    location: null,
    kind: 'http',
    timeMs: 10,
    network,
    paramsAdded: [],
    paramsRemoved: [],
    cookies: [],
    error: null,
  } as Hop;
}

function issue(code: string, severity: Issue['severity']): Issue {
  return { code, severity, title: code, description: '', fix: '', hop: null };
}

let counter = 0;

/** A finished check as the check view shows it; `willTrack` decides healthy/broken, `unverified` makes it a bot wall. */
function check(
  over: {
    willTrack?: boolean;
    finalUrl?: string;
    networks?: NetworkRef[];
    hops?: Hop[];
    issues?: Issue[];
    clickId?: boolean;
    status?: 'completed' | 'failed' | 'running';
  } = {},
): CheckView {
  counter += 1;
  const networks = over.networks ?? [AWIN];
  const view = {
    slug: `run${counter}`,
    url: 'https://www.awin1.com/cread.php?awinmid=1&awinaffid=2',
    checkType: 'link',
    status: over.status ?? 'completed',
    createdAt: '2026-11-24T10:00:00.000Z',
    completedAt: '2026-11-24T10:00:01.000Z',
    error: null,
    willTrack: over.willTrack ?? true,
    healthScore: 90,
    network: networks[0]?.name ?? null,
    networkId: networks[0]?.id ?? null,
    networks,
    finalUrl: over.finalUrl ?? 'https://shop.example/product?awc=123',
    finalStatus: 200,
    redirectCount: 1,
    totalRedirectTimeMs: 20,
    hops: over.hops ?? [hop('https://www.awin1.com/cread.php', 302, AWIN), hop('https://shop.example/product', 200)],
    trackingParameterPresent: over.clickId ?? true,
    trackingParameters: null,
    firstPartyCookieSet: null,
    thirdPartyCookieSet: null,
    cookieExpiryDays: null,
    cookies: [],
    issues: over.issues ?? [],
    mode: null,
    consent: null,
    privacy: null,
    verdict: null,
  } as unknown as CheckView;
  view.verdict = checkVerdict(view);
  return view;
}

const healthy = (over: Parameters<typeof check>[0] = {}) => runFacts(check({ willTrack: true, ...over }));
const broken = (over: Parameters<typeof check>[0] = {}) =>
  runFacts(check({ willTrack: false, issues: [issue('click_id_lost', 'critical')], clickId: false, ...over }));
const botWall = () => runFacts(check({ willTrack: false, issues: [issue('could_not_verify', 'warning')] }));

const T0 = Date.parse('2026-11-24T10:00:00Z');
const CONFIRM = 180_000;

/** Runs facts through decideRun one after another, a minute apart; returns every decision. */
function play(runs: RunFacts[], memory: MonitorMemory = INITIAL_MEMORY) {
  return runs.map((facts, i) => {
    const decision = decideRun(memory, facts, T0 + i * 60_000, CONFIRM);
    memory = decision.memory;
    return decision;
  });
}

describe('runFacts', () => {
  it('reads what change detection compares, ignoring the query of the final URL and info findings', () => {
    const facts = runFacts(
      check({
        finalUrl: 'https://Shop.Example/p/1?awc=XYZ',
        networks: [BITLY, AWIN, AWIN],
        hops: [hop('https://bit.ly/x', 301, BITLY), hop('https://www.awin1.com/c', 302, AWIN), hop('https://shop.example/p/1', 200)],
        issues: [issue('z_warn', 'warning'), issue('a_crit', 'critical'), issue('note', 'info'), issue('z_warn', 'warning')],
      }),
    );
    expect(facts).toMatchObject({
      state: 'healthy',
      verdict: 'will_track',
      finalHostPath: 'shop.example/p/1',
      networks: ['bitly', 'awin'],
      trackingHopStatus: 302,
      issueCodes: ['a_crit', 'z_warn'],
      clickIdPresent: true,
    });
  });

  it('calls a bot wall, a failed check and an unfinished check unknown, and a link that loses its click id broken', () => {
    expect(botWall().state).toBe('unknown');
    expect(runFacts(check({ status: 'failed' })).state).toBe('unknown');
    expect(runFacts(check({ status: 'running' })).state).toBe('unknown');
    expect(broken().state).toBe('broken');
  });
});

describe('decideRun', () => {
  it('says nothing while the answer stays the same', () => {
    const decisions = play([healthy(), healthy(), healthy()]);
    expect(decisions.map((d) => d.event)).toEqual([null, null, null]);
    expect(decisions.at(-1)?.memory.state).toBe('healthy');
  });

  it('pages broken only after a confirming run, at the confirm delay, naming both checks', () => {
    const first = healthy();
    const suspect = broken();
    const confirm = broken();
    const [, maybe, sure] = play([first, suspect, confirm]);
    expect(maybe?.event).toBeNull();
    expect(maybe?.confirmAt).toBe(T0 + 60_000 + CONFIRM);
    expect(maybe?.memory.state).toBe('healthy');
    expect(sure?.event).toMatchObject({ type: 'monitor.broken', checkSlug: confirm.slug, previousCheckSlug: first.slug });
    expect(sure?.event?.changes).toEqual([
      { field: 'state', from: 'healthy', to: 'broken' },
      { field: 'clickIdPresent', from: true, to: false },
      { field: 'issueCodes', from: [], to: ['click_id_lost'] },
    ]);
    expect(sure?.memory).toMatchObject({ state: 'broken', suspectSince: null });
  });

  it('does not page when the confirming run is healthy again (a blip)', () => {
    const decisions = play([healthy(), broken(), healthy()]);
    expect(decisions.map((d) => d.event)).toEqual([null, null, null]);
    expect(decisions[2]?.memory).toMatchObject({ state: 'healthy', suspectSince: null });
  });

  it('pages a link that was broken from its first run once confirmed, as pending → broken', () => {
    const [first, second] = play([broken(), broken()]);
    expect(first?.event).toBeNull();
    expect(first?.memory.state).toBe('pending');
    expect(second?.event).toMatchObject({
      type: 'monitor.broken',
      previousCheckSlug: null,
      changes: [{ field: 'state', from: 'pending', to: 'broken' }],
    });
  });

  it('never pages a bot wall, shows it as unknown, and a confirming run behind a bot wall confirms nothing', () => {
    const decisions = play([healthy(), botWall(), botWall(), broken(), botWall(), healthy()]);
    expect(decisions.map((d) => d.event)).toEqual([null, null, null, null, null, null]);
    expect(decisions.map((d) => d.memory.state)).toEqual(['healthy', 'unknown', 'unknown', 'unknown', 'unknown', 'healthy']);
    expect(decisions[4]?.confirmAt).toBeNull();
  });

  it('recovers from broken across unknown runs, measured against the last confirmed broken run', () => {
    const confirmed = broken();
    const decisions = play([healthy(), broken(), confirmed, botWall(), healthy()]);
    const recovered = decisions[4]?.event;
    expect(recovered).toMatchObject({ type: 'monitor.recovered', previousCheckSlug: confirmed.slug });
    expect(recovered?.changes[0]).toEqual({ field: 'state', from: 'broken', to: 'healthy' });
    expect(decisions.filter((d) => d.event !== null)).toHaveLength(2);
  });

  it('reports a changed chain with the same state, once, and each kind of change', () => {
    const base = healthy();
    const rerouted = healthy({
      finalUrl: 'https://shop.example/other',
      hops: [hop('https://www.awin1.com/c', 301, AWIN), hop('https://shop.example/other', 200)],
    });
    const decisions = play([
      base,
      rerouted,
      healthy({ finalUrl: 'https://shop.example/other?awc=new', hops: [hop('https://www.awin1.com/c', 301, AWIN)] }),
    ]);
    expect(decisions[1]?.event).toMatchObject({ type: 'monitor.changed', previousCheckSlug: base.slug });
    expect(decisions[1]?.event?.changes).toEqual([
      { field: 'finalHostPath', from: 'shop.example/product', to: 'shop.example/other' },
      { field: 'trackingHopStatus', from: 302, to: 301 },
    ]);
    expect(decisions[2]?.event).toBeNull();
    expect(chainChanges(base, healthy({ networks: [BITLY, AWIN] }))).toEqual([
      { field: 'networks', from: ['awin'], to: ['bitly', 'awin'] },
    ]);
  });

  it('reports a broken link whose breakage changes as changed, not broken again', () => {
    const decisions = play([broken(), broken(), broken({ issues: [issue('merchant_404', 'critical')] })]);
    expect(decisions[2]?.event).toMatchObject({
      type: 'monitor.changed',
      changes: [{ field: 'issueCodes', from: ['click_id_lost'], to: ['merchant_404'] }],
    });
  });

  it('keeps its memory JSON-serialisable, so a stored memory decides the same', () => {
    const [, suspect] = play([healthy(), broken()]);
    const stored = JSON.parse(JSON.stringify(suspect?.memory)) as MonitorMemory;
    const next = decideRun(stored, broken(), T0 + CONFIRM, CONFIRM);
    expect(next.event?.type).toBe('monitor.broken');
  });
});
