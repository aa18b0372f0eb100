import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStore, type MemoryCounterStore } from '../../src/rate-limit/memory-store.js';
import { MINUTE_START } from '../helpers/fake-clock.js';
import { itBehavesLikeACounterStore } from './store-contract.js';

describe('memory store', () => {
  let store: MemoryCounterStore;
  beforeEach(() => {
    store = createMemoryStore();
  });
  afterEach(async () => {
    await store.close();
  });

  itBehavesLikeACounterStore(() => store);

  it('prunes past windows on the next increment', async () => {
    for (let i = 0; i < 100; i++) await store.increment(`ip:${i}`, MINUTE_START, 60_000);
    expect(store.size()).toBe(100);
    await store.increment('ip:0', MINUTE_START + 60_000, 60_000);
    expect(store.size()).toBe(1);
    // Skipping many windows prunes everything older in one go.
    await store.increment('ip:1', MINUTE_START + 3_600_000, 60_000);
    expect(store.size()).toBe(1);
  });

  it('keeps the current window of a longer limit while shorter windows roll over', async () => {
    await store.increment('hourly', MINUTE_START, 3_600_000);
    await store.increment('minutely', MINUTE_START + 60_000, 60_000);
    expect(await store.increment('hourly', MINUTE_START, 3_600_000)).toBe(2);
  });

  it('does not share a counter between window lengths', async () => {
    expect(await store.increment('k', MINUTE_START, 60_000)).toBe(1);
    expect(await store.increment('k', MINUTE_START, 1_000)).toBe(1);
  });

  it('empties on close and refuses further use', async () => {
    await store.increment('k', MINUTE_START, 60_000);
    await store.close();
    expect(store.size()).toBe(0);
    await expect(store.increment('k', MINUTE_START, 60_000)).rejects.toThrow(/closed/);
  });
});
