// The engine's settings that come from the configuration, in one place for every process that runs checks:
// the service (context.ts) and `trackcheck check --local` (cli/check-command.ts).
import path from 'node:path';
import type { Config } from './config.js';
import type { BrowserPoolOptions } from './checker/browser/pool.js';
import type { CheckOptions } from './checker/check.js';

export function browserPoolSettings(config: Config): BrowserPoolOptions {
  return {
    executablePath: config.chromiumPath,
    resolve: config.resolve,
    scratchDir: path.join(config.dataDir, 'browser'),
    concurrency: config.browserConcurrency,
    trustedCaCerts: config.extraCaCerts,
    memoryCeilingMb: config.browserMemoryMb,
  };
}

export function chainSettings(config: Config): Pick<CheckOptions, 'resolve' | 'extraCaCerts' | 'deadlineMs'> {
  return { resolve: config.resolve, extraCaCerts: config.extraCaCerts, deadlineMs: config.checkDeadlineMs };
}
