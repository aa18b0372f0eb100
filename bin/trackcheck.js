#!/usr/bin/env node
// The `trackcheck` command: plain Node running the compiled JavaScript in dist/ (built by `npm install`'s
// `prepare` step, or `npm run build`). No loader at run time: what the tests run is what ships.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/main.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('trackcheck is not built: run `npm run build` (npm install does it) in the package directory');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
