// How Chromium is started: the switches that keep it quiet and inside the egress proxy, a minimal
// environment, and a way to find its process (tests kill it to prove crash recovery).
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import type * as PlaywrightCore from 'playwright-core';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { prepareTrustStore } from './trust-store.js';

/** The switches every launch uses (the list plus the side channels that bypass a proxy). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  // Chromium's own resolver answers nothing: a request that somehow skipped the proxy cannot look a
  // name up. The proxy itself is an IP literal, which needs no lookup.
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
  '--dns-prefetch-disable',
  '--no-pings',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--disable-default-apps',
  '--metrics-recording-only',
  '--mute-audio',
];

/** The proxy bypass list that bypasses nothing, loopback included. */
export const LOOPBACK_THROUGH_PROXY = '<-loopback>';

// Chromium needs little from our environment; secrets in it (JWT secrets, database URLs) stay out.
const PASSED_ENV = /^(PATH|HOME|TMPDIR|TMP|TEMP|TZ|LANG|LC_[A-Z]+|FONTCONFIG_[A-Z_]+|XDG_[A-Z_]+)$/;

function browserEnv(scratchDir: string | undefined, home: string | null): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && PASSED_ENV.test(name)) env[name] = value;
  }
  // Chromium's own temporary files go to the service's data dir (CONTRACT.md: "browser profile scratch").
  if (scratchDir !== undefined) env['TMPDIR'] = scratchDir;
  if (home !== null) env['HOME'] = home;
  return env;
}

export interface LaunchSettings {
  executablePath: string;
  /** The launch-wide proxy (contexts bring their own; this catches anything outside a context). */
  proxyUrl: string;
  extraArgs: readonly string[];
  timeoutMs: number;
  /** Directory for Chromium's temporary files (created if missing). */
  scratchDir?: string;
  /** Certificate authorities (PEM) Chromium trusts besides its own roots (TRACKCHECK_EXTRA_CA_CERTS). */
  trustedCaCerts?: readonly string[];
  /** The ceiling for Chromium's process tree (memory-guard.ts); each renderer's JavaScript heap gets a quarter. */
  memoryCeilingMb?: number;
}

/** V8's old-space limit per renderer: a quarter of the tree's ceiling, between 128 MB and 1 GB. */
export function jsHeapLimitMb(memoryCeilingMb: number): number {
  return Math.max(128, Math.min(1024, Math.floor(memoryCeilingMb / 4)));
}

export interface LaunchedBrowser {
  browser: Browser;
  /** An argument unique to this launch, so its process can be found in /proc. */
  marker: string;
}

let playwright: Promise<typeof PlaywrightCore> | null = null;

/**
 * Playwright, imported once. Importing it costs a quarter of a second of the event loop, so it is not part of
 * start-up (`listening on` comes sooner) and a service loads it in the background just after start-up
 * (`BrowserPool.warm`) rather than in the middle of its first browser check.
 */
export function loadPlaywright(): Promise<typeof PlaywrightCore> {
  playwright ??= import('playwright-core');
  return playwright;
}

export async function launchChromium(settings: LaunchSettings): Promise<LaunchedBrowser> {
  const marker = `--trackcheck-instance=${randomUUID()}`;
  if (settings.scratchDir !== undefined) mkdirSync(settings.scratchDir, { recursive: true, mode: 0o700 }); // profiles hold the checked sites' cookies
  const certs = settings.trustedCaCerts ?? [];
  const home = certs.length === 0 ? null : await prepareTrustStore(path.join(settings.scratchDir ?? os.tmpdir(), 'trust-home'), certs);
  const { chromium } = await loadPlaywright();
  const browser = await chromium.launch({
    executablePath: settings.executablePath,
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      ...(settings.memoryCeilingMb === undefined ? [] : [`--js-flags=--max-old-space-size=${jsHeapLimitMb(settings.memoryCeilingMb)}`]),
      ...settings.extraArgs,
      marker,
    ],
    // `<-loopback>` removes Chromium's implicit bypass of localhost/127.0.0.1/[::1]: loopback goes through the
    // proxy like everything else (Playwright turns this into --proxy-server and --proxy-bypass-list).
    proxy: { server: settings.proxyUrl, bypass: LOOPBACK_THROUGH_PROXY },
    env: browserEnv(settings.scratchDir, home),
    timeout: settings.timeoutMs,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  return { browser, marker };
}

/**
 * The main Chromium process started with `marker` (Linux /proc; null elsewhere or when gone). Chromium's
 * helper processes (renderers, GPU, network service) carry `--type=` and are skipped.
 */
export function findBrowserPid(marker: string): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (args.includes(marker) && !args.some((arg) => arg.startsWith('--type='))) return Number(entry);
  }
  return null;
}
