// What crosses between Node and the page scripts (page-scripts/): each script's argument and result.
// DOM-free on purpose: both the Node build and the page-script build read this file.

/** The idle probe's answer: the page's pending work (page-scripts/idle-probe.ts). */
export interface PageIdleState {
  timers: number;
  requests: number;
  /** External scripts inserted into the document that have neither run nor failed yet. */
  scripts: number;
  /** The page asked to leave for another document (Navigation API `navigate`). */
  navigating: boolean;
  /** A `<meta http-equiv=refresh>` with a URL and at most 10 s delay: its delay in seconds. */
  refreshDelay: number | null;
  /** The document's load event has fired, `sinceLoadMs` ago. */
  loaded: boolean;
  sinceLoadMs: number;
}

/** The timers the idle probe does not count (its own originals), for the checker's page-side helpers. */
export interface UncountedTimers {
  setTimeout: (handler: () => void, ms?: number) => number;
  clearTimeout: (id?: number) => void;
}

/** Where the autoconsent bundle finds its two message functions and timers (page-scripts/autoconsent-env.ts). */
export interface AutoconsentEnvKeys {
  /** The idle probe's key (its uncounted timers). */
  probeKey: string;
  /** The Node binding the bundle sends its messages through. */
  sendKey: string;
  /** Where the bundle's message receiver is kept (non-enumerable), for autoconsent-deliver.ts. */
  receiveKey: string;
}

export interface PlatformSignals {
  id: string;
  scripts: readonly string[];
  globals: readonly string[];
  banner: readonly string[];
}

export interface PlatformEvidence {
  id: string;
  script: boolean;
  global: boolean;
  banner: boolean;
  bannerVisible: boolean;
}

export interface PageConsentSignals {
  platforms: PlatformEvidence[];
  /** An IAB TCF v2 API (`__tcfapi`) or its locator frame is present. */
  tcf: boolean;
}

/** Every page script: its argument and what it returns (a promise's value for async ones). */
export interface PageScripts {
  /** Installed as an init script; its argument is the per-process key it defines on `window`. */
  'idle-probe': { arg: string; result: void };
  /** Installed as an init script: removes WebRTC (its UDP would bypass the egress proxy). */
  'webrtc-off': { arg: null; result: void };
  /** Asks the probe installed under `key` for the page's idle state (after load when `waitForLoad`). */
  'read-idle': { arg: { key: string; waitForLoad: boolean }; result: PageIdleState };
  /** The rendered document as HTML, doctype included. */
  'read-document': { arg: null; result: string };
  /** Which catalogue consent platforms show any sign of life, and whether a TCF API is there. */
  'consent-signals': { arg: readonly PlatformSignals[]; result: PageConsentSignals };
  /** The environment the autoconsent bundle runs in; null when it already runs in this document. */
  'autoconsent-env': { arg: AutoconsentEnvKeys; result: unknown };
  /** Hands one message to the autoconsent bundle of this document; false when it is not there. */
  'autoconsent-deliver': { arg: { receiveKey: string; message: unknown }; result: boolean };
  /** Marks the visible control whose whole label is one of `phrases` with `data-trackcheck-choice=<mark>`. */
  'mark-choice': { arg: { phrases: readonly string[]; mark: string }; result: boolean };
}

export type PageScriptName = keyof PageScripts;
