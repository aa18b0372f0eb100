// A FIFO counting semaphore: the pool's concurrency bound. Waiters can give up through an AbortSignal.

export interface Semaphore {
  /** Resolves with a release function once a slot is free. */
  acquire(signal?: AbortSignal): Promise<() => void>;
  active(): number;
  queued(): number;
}

interface Waiter {
  grant: (release: () => void) => void;
  reject: (reason: unknown) => void;
}

export function createSemaphore(limit: number): Semaphore {
  let inUse = 0;
  const waiting: Waiter[] = [];

  function makeRelease(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = waiting.shift();
      if (next !== undefined) next.grant(makeRelease());
      else inUse -= 1;
    };
  }

  return {
    acquire(signal) {
      if (signal?.aborted === true) return Promise.reject(signal.reason);
      if (inUse < limit) {
        inUse += 1;
        return Promise.resolve(makeRelease());
      }
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          grant: (release) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(release);
          },
          reject,
        };
        const onAbort = (): void => {
          const index = waiting.indexOf(waiter);
          if (index >= 0) waiting.splice(index, 1);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(waiter);
      });
    },
    active: () => inUse,
    queued: () => waiting.length,
  };
}
