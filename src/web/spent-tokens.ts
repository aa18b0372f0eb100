// Ids of web tokens that must not work again before they expire: a one-time sign-in link once used, a session
// once signed out. Kept in the database (store/spent-tokens-repo.ts, handed in by app.ts as SpentTokensStore), so of
// two concurrent uses of the same link (even on two instances sharing the database) exactly one wins; expired ids are
// pruned from here, at most every ten minutes.
import type { Clock } from '../rate-limit/window.js';

export type SpentKind = 'login_link' | 'session';

export interface SpentTokens {
  /** Records the id as spent; false when it already was (the caller lost the race, or it is a replay). */
  spend(kind: SpentKind, id: string, expiresAtMs: number): Promise<boolean>;
  isSpent(kind: SpentKind, id: string): Promise<boolean>;
}

/** Where spent ids are kept: the store's repository, seen from the web pages. */
export interface SpentTokensStore extends SpentTokens {
  deleteExpired(nowMs: number): Promise<void>;
}

const PRUNE_EVERY_MS = 10 * 60_000;

export function createSpentTokens(store: SpentTokensStore, clock: Clock): SpentTokens {
  let lastPrune = Number.NEGATIVE_INFINITY;

  async function prune(now: number): Promise<void> {
    if (now - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now;
    await store.deleteExpired(now);
  }

  return {
    async spend(kind, id, expiresAtMs) {
      const now = clock.now();
      const spent = await store.spend(kind, id, expiresAtMs);
      await prune(now).catch(() => undefined); // housekeeping must never fail a sign-in
      return spent;
    },

    isSpent: (kind, id) => store.isSpent(kind, id),
  };
}
