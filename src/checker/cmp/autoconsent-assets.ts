// DuckDuckGo's autoconsent (MPL-2.0, pinned in package.json) as this process uses it: its Playwright content
// script and its JSON rules, read from node_modules at run time (never copied into this repository), and the
// rules each frame needs. The content script is third-party code injected as text; we only wrap it (see
// wrapBundle) so that it talks to us through per-process names and waits with timers the page's idle probe
// does not count. Licence and rules: docs/consent.md.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DYNAMIC_RULE_NAMES } from './autoconsent-platforms.js';

const PACKAGE = '@duckduckgo/autoconsent';

interface RawRule {
  name: string;
  cosmetic?: boolean;
  runContext?: { main?: boolean; frame?: boolean; urlPattern?: string };
  [step: string]: unknown;
}

interface PreparedRule {
  rule: RawRule;
  main: boolean;
  frame: boolean;
  /** Site-specific rules run only where their pattern matches (autoconsent's own rule, applied here first). */
  pattern: RegExp | null;
}

export interface AutoconsentAssets {
  version: string;
  /** The content script, wrapped: an expression to evaluate in a frame after autoconsent-env's call. */
  wrap(envCall: string): string;
  /** The rule bundle for a frame: generic rules of its kind plus the site-specific rules matching its URL. */
  rulesFor(url: string, isTop: boolean): { autoconsent: RawRule[] };
  /** Every rule name the bundle can report (JSON rules and the class-based ones compiled into it). */
  ruleNames: ReadonlySet<string>;
  /** Rules tied to particular sites (a URL pattern, or generated per site): a site's own banner, not a platform. */
  siteSpecific: ReadonlySet<string>;
}

// The Playwright glue at the end of the bundle (playwright/content.ts) reads and writes these two globals;
// they become members of our environment object. Exact counts, so a different bundle layout fails loudly.
const GLUE: ReadonlyArray<{ from: string; to: string; count: number }> = [
  { from: 'window.autoconsentSendMessage', to: '__tcEnv.send', count: 1 },
  { from: 'window.autoconsentReceiveMessage', to: '__tcEnv.receive', count: 3 },
];

function packageDir(): string {
  const require = createRequire(import.meta.url);
  // The package exports its rules but not package.json: find the root from the rules file.
  return path.dirname(path.dirname(require.resolve(`${PACKAGE}/rules/rules.json`)));
}

function rewireGlue(bundle: string): string {
  let out = bundle;
  for (const { from, to, count } of GLUE) {
    const found = out.split(from).length - 1;
    if (found !== count) throw new Error(`${PACKAGE}: expected ${count} × ${from} in the Playwright bundle, found ${found}`);
    out = out.split(from).join(to);
  }
  return out;
}

// Only what detection and the two choices use travels to the page.
const DROPPED_KEYS = new Set(['_metadata', 'test', 'vendorUrl', 'comment']);

function prepare(rule: RawRule): PreparedRule {
  const slim = Object.fromEntries(Object.entries(rule).filter(([key]) => !DROPPED_KEYS.has(key))) as RawRule;
  const context = rule.runContext ?? {};
  let pattern: RegExp | null = null;
  if (context.urlPattern) {
    try {
      pattern = new RegExp(context.urlPattern);
    } catch {
      pattern = /$^/; // a pattern JavaScript cannot compile never matches, as in the page
    }
  }
  return { rule: slim, main: context.main ?? true, frame: context.frame ?? false, pattern };
}

export function loadAutoconsentAssets(): AutoconsentAssets {
  const dir = packageDir();
  const version = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const bundle = rewireGlue(readFileSync(path.join(dir, 'dist', 'autoconsent.playwright.js'), 'utf8'));
  const raw = (JSON.parse(readFileSync(path.join(dir, 'rules', 'rules.json'), 'utf8')) as { autoconsent: RawRule[] }).autoconsent;
  // Cosmetic rules only hide a banner (no choice is recorded): the check never runs them.
  const rules = raw.filter((rule) => rule.cosmetic !== true).map(prepare);
  const generic = { main: rules.filter((r) => r.pattern === null && r.main), frame: rules.filter((r) => r.pattern === null && r.frame) };
  const specific = rules.filter((r) => r.pattern !== null);
  const siteSpecific = new Set([...specific.map((r) => r.rule.name), ...raw.map((r) => r.name).filter((name) => name.startsWith('auto_'))]);
  return {
    version,
    // `"use strict"` stays the first statement of the function body, so the bundle keeps its strict mode.
    wrap: (envCall) =>
      `((__tcEnv) => __tcEnv && (function (__tcEnv, setTimeout, clearTimeout) {\n${bundle}\n})(__tcEnv, __tcEnv.setTimeout, __tcEnv.clearTimeout))(${envCall})`,
    rulesFor(url, isTop) {
      const base = isTop ? generic.main : generic.frame;
      const matched = specific.filter((r) => (isTop ? r.main : r.frame) && r.pattern !== null && r.pattern.test(url));
      return { autoconsent: [...matched, ...base].map((r) => r.rule) };
    },
    ruleNames: new Set([...raw.map((r) => r.name), ...DYNAMIC_RULE_NAMES]),
    siteSpecific,
  };
}

let cached: AutoconsentAssets | null = null;

/** Loaded once per process (about 1 MB of rules parsed on the first cmp check). */
export function autoconsentAssets(): AutoconsentAssets {
  cached ??= loadAutoconsentAssets();
  return cached;
}
