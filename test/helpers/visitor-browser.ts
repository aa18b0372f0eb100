// A visitor's Chromium for the page and end-to-end tests: the machine's launch switches (no sandbox, GPU, QUIC or
// background traffic) and a persistent profile of the test's own. Unlike the checker's pool, no egress proxy.
import { chromium, type BrowserContext } from 'playwright-core';

export const VISITOR_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

type ContextOptions = NonNullable<Parameters<typeof chromium.launchPersistentContext>[1]>;

/** A headless Chromium on `profile` with the visitor switches (`options.args` adds to them); `options` sets viewport, JavaScript… */
export function launchVisitor(
  executablePath: string,
  profile: string,
  options: Omit<ContextOptions, 'executablePath' | 'headless'> = {},
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    ...options,
    executablePath,
    headless: true,
    args: [...VISITOR_ARGS, ...(options.args ?? [])],
  });
}
