// Check use cases: submit (with the anonymous weekly cap), read, list. Running a check is check-runner.ts.
import { checkSubmittedUrl } from '../checker/net/net-guard.js';
import type { ResolveMap } from '../checker/net/address-policy.js';
import type { Store } from '../store/index.js';
import type { Clock } from '../rate-limit/window.js';
import { jobRequester, type Principal } from '../auth/principal.js';
import { DomainError } from './domain-error.js';
import { newSlug } from '../lib/ids.js';
import { isoWeekOf } from '../lib/iso-week.js';
import { isFinished, toCheckView, type CheckType, type CheckView } from './check-view.js';
import type { CheckWaiter } from '../jobs/check-waiter.js';
import { isoAt } from '../lib/iso-timestamp.js';
import { readCursor, splitPage } from './cursor.js';

export interface ChecksServiceDeps {
  store: Store;
  clock: Clock;
  waiter: CheckWaiter;
  resolve: ResolveMap;
  syncWaitMs: number;
  anonWeeklyChecks: number;
  /** Asks the local worker, if any, to look for work now. */
  poke(): void;
}

/** Single checks go ahead of batch checks in the queue. */
export const INTERACTIVE_PRIORITY = 0;

export function validateCheckUrl(raw: unknown, resolve: ResolveMap): URL {
  const verdict = checkSubmittedUrl(raw, resolve);
  if (!verdict.ok) throw new DomainError(verdict.code, verdict.message);
  return verdict.url;
}

export function createChecksService(deps: ChecksServiceDeps) {
  const { store, clock } = deps;

  async function consumeAnonymousAllowance(ip: string, checkType: CheckType): Promise<void> {
    const now = clock.now();
    const week = isoWeekOf(now);
    if (await store.usage.consume(ip, checkType, week.key, deps.anonWeeklyChecks)) return;
    const seconds = Math.max(1, Math.ceil((week.endsAt - now) / 1000));
    throw new DomainError(
      'anonymous_check_limit_reached',
      `Anonymous use is limited to ${deps.anonWeeklyChecks} ${checkType} checks per week per IP address; the allowance resets on Monday 00:00 UTC (in ${seconds} seconds). Create an API key to check more links.`,
      { 'retry-after': String(seconds) },
    );
  }

  return {
    /** Submits a check and waits up to the sync wait (or `maxWaitMs`, when shorter) for its verdict. */
    async create(
      principal: Principal,
      input: { url: string; check_type?: CheckType },
      options: { maxWaitMs?: number } = {},
    ): Promise<{ check: CheckView; finished: boolean }> {
      const checkType = input.check_type ?? 'link';
      const url = validateCheckUrl(input.url, deps.resolve);
      if (principal.kind === 'anonymous') await consumeAnonymousAllowance(principal.ip, checkType);
      const now = isoAt(clock.now());
      const slug = newSlug();
      const check = {
        slug,
        user_id: principal.kind === 'user' ? principal.userId : null,
        batch_id: null,
        url: input.url,
        check_type: checkType,
        status: 'queued',
        created_at: now,
        started_at: null,
        completed_at: null,
        result: null,
        error_code: null,
        error_message: null,
      };
      try {
        await store.queue.add([{ check, host: url.hostname, requester: jobRequester(principal), priority: INTERACTIVE_PRIORITY }], now);
      } catch (err) {
        // Not created: the anonymous allowance it counted is given back.
        if (principal.kind === 'anonymous')
          await store.usage.release(principal.ip, checkType, isoWeekOf(clock.now()).key).catch(() => undefined);
        throw err;
      }
      deps.poke();
      // The check exists from here on: if waiting for it fails (the database went away meanwhile), answer
      // 202 with its Location rather than an error a client would retry into a duplicate check.
      const row = await deps.waiter.waitFor(slug, Math.min(deps.syncWaitMs, options.maxWaitMs ?? Infinity)).catch(() => undefined);
      const current = row ?? { ...check, view_count: 0, verdict: null, input_values: null, monitor_id: null };
      return { check: toCheckView(current), finished: isFinished(current.status) };
    },

    async get(slug: string): Promise<CheckView> {
      const row = await store.checks.get(slug);
      if (!row) throw new DomainError('not_found', 'No check with this slug.');
      return toCheckView(row);
    },

    async list(userId: string, limit: number, cursor: string | undefined): Promise<{ data: CheckView[]; nextCursor: string | null }> {
      const position = readCursor(cursor);
      const after = position && { createdAt: position.createdAt, slug: position.id };
      const rows = await store.checks.listByUser(userId, limit + 1, after);
      const { page, nextCursor } = splitPage(rows, limit, (r) => r.slug);
      return { data: page.map(toCheckView), nextCursor };
    },
  };
}

export type ChecksService = ReturnType<typeof createChecksService>;

/** The same service with every `create` waiting at most `maxWaitMs` (the web form: a browser should not hang). */
export function withMaxWait(checks: ChecksService, maxWaitMs: number): ChecksService {
  return {
    ...checks,
    create: (principal, input, options = {}) =>
      checks.create(principal, input, { maxWaitMs: Math.min(maxWaitMs, options.maxWaitMs ?? Infinity) }),
  };
}
