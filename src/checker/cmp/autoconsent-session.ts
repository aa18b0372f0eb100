// One page's autoconsent run: the content script injected into every frame of the landing page (cross-origin
// frames included, and frames that load later), its messages answered and recorded. Only the landing page
// gets it — never the tracking hops before it — so it cannot act on an intermediate page, and its work is
// not part of the chain's timing. Protocol: autoconsent docs/api.md (init → initResp, cmpDetected,
// popupFound, optIn/optOut → optInResult/optOutResult, autoconsentDone, eval → evalResp).
//
// Safety: the bundle runs in the page's main world, so the page can call our binding too. Every message is
// checked (known type, known rule name, bounded count); `eval` requests are never evaluated (snippets run
// inline because `isMainWorld` is set, so only a forged request could arrive) and are answered `false`.
import { randomBytes } from 'node:crypto';
import type { Frame, Page } from 'playwright-core';
import { evaluateWithTimeout, pageScriptCall, runPageScript } from '../browser/page-script.js';
import { probeKey } from '../browser/page-probe.js';
import { autoconsentAssets } from './autoconsent-assets.js';

export interface RuleSighting {
  rule: string;
  frame: Frame;
  /** The frame's URL when the message came. */
  url: string;
}

export interface ActionResult extends RuleSighting {
  result: boolean;
}

export interface AutoconsentSession {
  /** The first rule whose banner is shown (popupFound), null until then. */
  popup(): RuleSighting | null;
  /** The first opt-in / opt-out result (after `act`), null until then. */
  result(): ActionResult | null;
  /** The main frame navigated after a banner was found (a consent choice that reloads the page). */
  navigatedAfterPopup(): boolean;
  /** Asks the frame that found the banner to opt in or out; false when there is no banner or frame. */
  act(action: 'optIn' | 'optOut'): Promise<boolean>;
  /** Resolves true as soon as `ready()` holds (checked on every message), false after `timeoutMs`. */
  waitUntil(ready: () => boolean, timeoutMs: number): Promise<boolean>;
  /** No more frames are injected and later messages are ignored. */
  stop(): void;
}

// Per process, like the idle probe's key: a page cannot rely on the names.
const KEYS = {
  probeKey: probeKey(),
  sendKey: `__tc_${randomBytes(6).toString('hex')}`,
  receiveKey: `__tc_${randomBytes(6).toString('hex')}`,
};
const INJECT_TIMEOUT_MS = 5_000;
const DELIVER_TIMEOUT_MS = 3_000;
// A real page sends a few dozen (state reports included); more is a page talking to our binding.
const MAX_MESSAGES = 2_000;
const MAX_INITS_PER_FRAME = 5;
const MAX_INITS = 50;
const RESULT_TYPES = new Set(['optInResult', 'optOutResult']);

let wrapped: string | null = null;
function contentScript(): string {
  wrapped ??= autoconsentAssets().wrap(pageScriptCall('autoconsent-env', KEYS));
  return wrapped;
}

// autoAction null: the bundle only reports what it finds; the check decides whether and where to act.
function initConfig() {
  const logs = { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false, errors: false, messages: false, waits: false };
  return {
    enabled: true,
    autoAction: null,
    disabledCmps: [],
    // Nothing is hidden from the shopper's view (nor from our own detection), and nothing merely hidden counts.
    enablePrehide: false,
    enableCosmeticRules: false,
    enableGeneratedRules: true,
    enableHeuristicDetection: false,
    heuristicMode: 'off',
    enablePopupMutationObserver: false,
    detectRetries: 20,
    isMainWorld: true,
    prehideTimeout: 0,
    visualTest: false,
    performanceLoggingEnabled: false,
    logs,
  };
}

const CONFIG = initConfig();

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export async function startAutoconsent(page: Page): Promise<AutoconsentSession> {
  const assets = autoconsentAssets();
  let stopped = false;
  let count = 0;
  let totalInits = 0;
  const inits = new Map<Frame, number>();
  let popup: RuleSighting | null = null;
  let result: ActionResult | null = null;
  let navigated = false;
  const waiters = new Set<() => void>();
  const notify = (): void => {
    for (const waiter of [...waiters]) waiter();
  };

  const deliver = async (frame: Frame, message: unknown): Promise<void> => {
    await runPageScript(frame, 'autoconsent-deliver', { receiveKey: KEYS.receiveKey, message }, DELIVER_TIMEOUT_MS).catch(() => undefined);
  };

  const onMessage = async (frame: Frame, message: unknown): Promise<void> => {
    if (stopped || !isRecord(message) || typeof message['type'] !== 'string') return;
    if ((count += 1) > MAX_MESSAGES) return;
    const type = message['type'];
    if (type === 'init') {
      // Each init costs a rule bundle (about 100 kB): a frame gets a few (it may navigate), a page a bounded number.
      const frameInits = (inits.get(frame) ?? 0) + 1;
      inits.set(frame, frameInits);
      if (frameInits > MAX_INITS_PER_FRAME || (totalInits += 1) > MAX_INITS) return;
      const isTop = frame.parentFrame() === null;
      await deliver(frame, { type: 'initResp', config: CONFIG, rules: assets.rulesFor(frame.url(), isTop) });
      return;
    }
    if (type === 'eval') {
      const id = message['id'];
      if (typeof id === 'string' && id.length <= 64) await deliver(frame, { type: 'evalResp', id, result: false });
      return;
    }
    const rule = message['cmp'];
    if (typeof rule !== 'string' || !assets.ruleNames.has(rule)) return;
    const sighting: RuleSighting = { rule, frame, url: frame.url() };
    if (type === 'popupFound') popup ??= sighting;
    else if (RESULT_TYPES.has(type)) result ??= { ...sighting, result: message['result'] === true };
    else return;
    notify();
  };

  const inject = (frame: Frame): void => {
    // about:blank and srcdoc frames (TCF locators, ad slots) belong to their parent's origin: the parent's
    // rules reach into them. A frame that navigates on to a real URL is injected then.
    if (stopped || !/^https?:/i.test(frame.url())) return;
    // A frame that is gone or too busy simply gets no consent engine; the rest of the check goes on.
    void evaluateWithTimeout(frame, contentScript(), INJECT_TIMEOUT_MS).catch(() => undefined);
  };

  await page.exposeBinding(KEYS.sendKey, (source: { frame: Frame }, message: unknown) => onMessage(source.frame, message));
  // A new document in the main frame (not a same-document URL change, which also reports framenavigated).
  const onDocument = (): void => {
    if (popup === null || stopped) return;
    navigated = true;
    notify();
  };
  page.on('framenavigated', inject);
  page.on('domcontentloaded', onDocument);
  for (const frame of page.frames()) inject(frame);

  return {
    popup: () => popup,
    result: () => result,
    navigatedAfterPopup: () => navigated,
    async act(action) {
      if (popup === null || stopped) return false;
      const outcome = await runPageScript(
        popup.frame,
        'autoconsent-deliver',
        { receiveKey: KEYS.receiveKey, message: { type: action } },
        DELIVER_TIMEOUT_MS,
      ).catch(() => null);
      return outcome?.kind === 'done' && outcome.value;
    },
    waitUntil(ready, timeoutMs) {
      if (ready()) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const check = (): void => {
          if (!ready()) return;
          finish(true);
        };
        const timer = setTimeout(() => finish(false), Math.max(0, timeoutMs));
        const finish = (value: boolean): void => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(value);
        };
        waiters.add(check);
      });
    },
    stop() {
      stopped = true;
      page.off('framenavigated', inject);
      page.off('domcontentloaded', onDocument);
      notify();
    },
  };
}
