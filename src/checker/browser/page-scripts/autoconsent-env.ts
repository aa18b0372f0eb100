// The environment DuckDuckGo's autoconsent bundle runs in (it is third-party code, loaded as text from
// node_modules and wrapped by cmp/autoconsent-assets.ts): the Node binding it sends messages through, a
// place for its message receiver, and the idle probe's uncounted timers, so its 500 ms polling never reads
// as the page's own pending work. The keys are random per process and kept off `window`'s enumerable
// properties, as the idle probe's are. Returns null when the bundle already runs in this document.
import type { AutoconsentEnvKeys, UncountedTimers } from '../page-script-types.js';

type Receiver = (message: unknown) => Promise<unknown>;

export interface AutoconsentEnv {
  send: (message: unknown) => unknown;
  receive: Receiver | undefined;
  setTimeout: UncountedTimers['setTimeout'];
  clearTimeout: UncountedTimers['clearTimeout'];
}

export default function autoconsentEnv(keys: AutoconsentEnvKeys): AutoconsentEnv | null {
  const globals = window as unknown as Record<string, unknown>;
  if (Object.prototype.hasOwnProperty.call(globals, keys.receiveKey)) return null;
  const binding = globals[keys.sendKey];
  if (typeof binding !== 'function') return null;
  const probe = globals[keys.probeKey] as { timers?: UncountedTimers } | undefined;
  const timers: UncountedTimers = probe?.timers ?? {
    setTimeout: window.setTimeout.bind(window),
    clearTimeout: window.clearTimeout.bind(window),
  };
  const env: AutoconsentEnv = {
    // A rejected binding call (the page closing) is nobody's business in the page.
    send: (message) => Promise.resolve((binding as (m: unknown) => unknown)(message)).catch(() => undefined),
    receive: undefined,
    setTimeout: timers.setTimeout,
    clearTimeout: timers.clearTimeout,
  };
  Object.defineProperty(env, 'receive', {
    get: () => globals[keys.receiveKey],
    set: (receiver: Receiver) => {
      Object.defineProperty(window, keys.receiveKey, { enumerable: false, configurable: false, writable: false, value: receiver });
    },
  });
  return env;
}
