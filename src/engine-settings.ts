// The engine's settings that come from the configuration, in one place for every process that runs checks:
// the service (context.ts) and `trackcheck check --local` (cli/check-command.ts).
import path from 'node:path';
import type { Config } from './config.js';
import type { BrowserPoolOptions } from './checker/browser/pool.js';
import type { ChainOptions } from './checker/chain.js';

export function browserPoolSettings(config: Config): BrowserPoolOptions {
  return {
    executablePath: config.chromiumPath,
    resolve: config.resolve,
    scratchDir: path.join(config.dataDir, 'browser'),
    concurrency: config.browserConcurrency,
    trustedCaCerts: config.extraCaCerts,
  };
}

export function chainSettings(config: Config): Pick<ChainOptions, 'resolve' | 'extraCaCerts'> {
  return { resolve: config.resolve, extraCaCerts: config.extraCaCerts };
}
