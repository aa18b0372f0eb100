// The durable queue at the repository level: priority, per-host slots, leases, SKIP LOCKED claims.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATABASES, type TestDatabase } from '../helpers/databases.js';
import { openStore, type Store } from '../../src/store/index.js';
import type { QueuedCheck } from '../../src/store/check-queue.js';
import type { ClaimOptions } from '../../src/store/jobs-repo.js';

const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

function queued(slug: string, host: string, priority: number, createdAt: number, requester = 'user:alice'): QueuedCheck {
  return {
    check: {
      slug,
      user_id: 'alice',
      batch_id: null,
      url: `http://${host}/${slug}`,
      check_type: 'link',
      status: 'queued',
      created_at: iso(createdAt),
      started_at: null,
      completed_at: null,
      result: null,
      error_code: null,
      error_message: null,
    },
    host,
    requester,
    priority,
  };
}

const at = (ms: number, extra: Partial<ClaimOptions> = {}): ClaimOptions => ({
  now: iso(ms),
  leaseUntil: iso(ms + 60_000),
  skipHosts: [],
  perHost: 4,
  ...extra,
});

describe.each(DATABASES)('job queue on $name', (kind) => {
  let database: TestDatabase;
  let store: Store;
  beforeEach(async () => {
    database = await kind.create();
    store = await openStore(database.url);
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  it('claims interactive checks first, then batch links in submission order', async () => {
    await store.queue.add(
      Array.from({ length: 6 }, (_, i) => queued(`b${i}`, `h${i}.example`, 1, T0 - 6 + i)),
      iso(T0),
    );
    await store.queue.add([queued('single', 'x.example', 0, T0 + 5)], iso(T0 + 5));
    const claimed = await store.jobs.claim('w1', 4, at(T0 + 10));
    expect(claimed.map((j) => j.check_slug)).toEqual(['single', 'b0', 'b1', 'b2']);
    expect(claimed.every((j) => j.status === 'running' && j.lease_owner === 'w1' && j.attempts === 1)).toBe(true);
    expect((await store.jobs.claim('w2', 10, at(T0 + 10))).map((j) => j.check_slug)).toEqual(['b3', 'b4', 'b5']);
    expect(await store.jobs.claim('w3', 10, at(T0 + 10))).toEqual([]);
    expect(await store.jobs.depth()).toEqual({ queued: 0, running: 7 });
  });

  it('never leases a host more than its free slots, and lets other hosts through', async () => {
    const items = [
      ...Array.from({ length: 40 }, (_, i) => queued(`busy${i}`, 'busy.example', 1, T0 - 100 + i)),
      ...Array.from({ length: 10 }, (_, i) => queued(`other${i}`, `other${i}.example`, 1, T0 - 50 + i)),
    ];
    await store.queue.add(items, iso(T0));
    const first = await store.jobs.claim('w1', 32, at(T0));
    const hosts = first.map((j) => j.host);
    expect(hosts.filter((h) => h === 'busy.example')).toHaveLength(4);
    expect(hosts.filter((h) => h !== 'busy.example')).toHaveLength(10);
    // This worker runs 3 there now (one finished): one more slot. Then the host is full and skipped.
    await store.jobs.complete(first.find((j) => j.host === 'busy.example')?.check_slug ?? '', 'w1');
    const second = await store.jobs.claim('w1', 32, at(T0, { hostSlots: { 'busy.example': 1 } }));
    expect(second.map((j) => j.host)).toEqual(['busy.example']);
    expect(await store.jobs.claim('w1', 32, at(T0, { skipHosts: ['busy.example'] }))).toEqual([]);
    // Without per-host limits (the plain claim), order alone decides.
    const plain = await store.jobs.claim('w2', 5, { now: iso(T0), leaseUntil: iso(T0 + 1000), skipHosts: [] });
    expect(plain.map((j) => j.host)).toEqual(Array(5).fill('busy.example'));
  });

  it.skipIf(kind.name !== 'postgres')("counts every worker's unexpired leases against a host's cap", async () => {
    await store.queue.add(
      Array.from({ length: 10 }, (_, i) => queued(`busy${i}`, 'busy.example', 1, T0 - 100 + i)),
      iso(T0),
    );
    // The worker's own view can only narrow a host's room.
    expect(await store.jobs.claim('w1', 32, at(T0, { hostSlots: { 'busy.example': 2 } }))).toHaveLength(2);
    const first = await store.jobs.claim('w1', 32, at(T0));
    expect(first).toHaveLength(2);
    // A second worker finds the host full; when one job finishes, whoever claims next gets its slot.
    expect(await store.jobs.claim('w2', 32, at(T0))).toEqual([]);
    await store.jobs.complete(first[0]?.check_slug ?? '', 'w1');
    expect(await store.jobs.claim('w2', 32, at(T0))).toHaveLength(1);
    // Lapsed leases (their worker died) no longer count: the host has room for them to be taken over.
    expect(await store.jobs.claim('w3', 32, at(T0 + 61_000))).toHaveLength(4);
  });

  it.skipIf(kind.name !== 'postgres')('keeps the per-host cap exact when workers claim at the same moment', async () => {
    await store.queue.add(
      Array.from({ length: 40 }, (_, i) => queued(`busy${i}`, 'busy.example', 1, T0 - 100 + i)),
      iso(T0),
    );
    const claims = await Promise.all(Array.from({ length: 6 }, (_, w) => store.jobs.claim(`w${w}`, 8, at(T0))));
    expect(claims.flat()).toHaveLength(4);
  });

  it('gives concurrent claimers disjoint jobs', async () => {
    await store.queue.add(
      Array.from({ length: 300 }, (_, i) => queued(`j${i}`, `h${i % 30}.example`, 1, T0 - 300 + i)),
      iso(T0),
    );
    const taken: string[][] = Array.from({ length: 6 }, () => []);
    await Promise.all(
      taken.map(async (mine, w) => {
        for (;;) {
          // Room for every job of every host (10 each), so only the claims' disjointness limits what each gets.
          const got = await store.jobs.claim(`w${w}`, 7, at(T0, { perHost: 10 }));
          if (got.length === 0) return;
          mine.push(...got.map((j) => j.check_slug));
        }
      }),
    );
    const all = taken.flat();
    expect(all).toHaveLength(300);
    expect(new Set(all).size).toBe(300);
    const rows = await store.db.selectFrom('jobs').select(['check_slug', 'lease_owner', 'attempts']).execute();
    for (const row of rows) {
      expect(taken[Number(row.lease_owner?.slice(1))]).toContain(row.check_slug);
      expect(row.attempts).toBe(1);
    }
  });

  it('reclaims lapsed leases only, and lets only the lease holder finish or retry a job', async () => {
    await store.queue.add([queued('a', 'a.example', 1, T0 - 1), queued('b', 'b.example', 1, T0)], iso(T0));
    const [a, b] = await store.jobs.claim('dead', 2, { ...at(T0), leaseUntil: iso(T0 + 1000) });
    expect([a?.check_slug, b?.check_slug]).toEqual(['a', 'b']);
    await store.jobs.extendLeases('dead', ['b'], iso(T0 + 10_000));
    expect(await store.jobs.claim('alive', 5, at(T0 + 999))).toEqual([]);
    const reclaimed = await store.jobs.claim('alive', 5, at(T0 + 1001));
    expect(reclaimed.map((j) => [j.check_slug, j.attempts, j.lease_owner])).toEqual([['a', 2, 'alive']]);
    // The dead worker comes back: its completion and retry of a job it lost change nothing.
    await store.jobs.complete('a', 'dead');
    await store.jobs.completeMany(['a'], 'dead');
    await store.jobs.retry('a', 'dead', 'late', iso(T0));
    expect(await store.db.selectFrom('jobs').select(['lease_owner', 'status']).where('check_slug', '=', 'a').executeTakeFirst()).toEqual({
      lease_owner: 'alive',
      status: 'running',
    });
    await store.jobs.completeMany(['a', 'b'], 'alive');
    expect(await store.jobs.depth()).toEqual({ queued: 0, running: 1 });
    await store.jobs.completeMany(['a', 'b'], 'dead');
    expect(await store.jobs.depth()).toEqual({ queued: 0, running: 0 });
  });

  it('holds a retried job back until its backoff passes, and a released job keeps its attempts', async () => {
    await store.queue.add([queued('r', 'r.example', 1, T0), queued('s', 's.example', 1, T0)], iso(T0));
    await store.jobs.claim('w', 2, at(T0));
    await store.jobs.retry('r', 'w', 'boom', iso(T0 + 2000));
    await store.jobs.release('s', 'w');
    const now = await store.jobs.claim('w', 5, at(T0 + 1999));
    expect(now.map((j) => [j.check_slug, j.attempts])).toEqual([['s', 1]]);
    const later = await store.jobs.claim('w', 5, at(T0 + 2000));
    expect(later.map((j) => [j.check_slug, j.attempts, j.last_error])).toEqual([['r', 2, 'boom']]);
  });

  it('claims other requesters’ due jobs ahead of a busy requester’s, from far back in the queue', async () => {
    await store.queue.add(
      Array.from({ length: 120 }, (_, i) => queued(`a${i}`, `a${i % 40}.example`, 1, T0 - 500 + i, 'user:alice')),
      iso(T0),
    );
    await store.queue.add(
      [queued('b0', 'b.example', 1, T0 - 10, 'user:bob'), queued('c0', 'c.example', 1, T0 - 5, 'ip:203.0.113.9')],
      iso(T0),
    );
    const fair = await store.jobs.claim('w1', 3, at(T0, { busyRequesters: ['user:alice'] }));
    // bob's and the anonymous caller's jobs first (120 of alice's stand before them), then alice's oldest.
    expect(fair.map((job) => job.check_slug).sort()).toEqual(['a0', 'b0', 'c0']);
    // Nobody else waiting: the busy requester still gets every free slot.
    const rest = await store.jobs.claim('w1', 10, at(T0, { busyRequesters: ['user:alice'] }));
    expect(rest.every((job) => job.requester === 'user:alice')).toBe(true);
    expect(rest).toHaveLength(10);
  });
});
