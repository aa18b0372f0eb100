// Before any test: dist/ must be the build of the sources under test, since the process, CLI and e2e suites
// run the compiled service and every browser test runs the built page scripts. `npm test` builds first; a
// direct `npx vitest` run rebuilds here when a source is newer than the last build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const STAMP = 'dist/.build-stamp';
const INPUTS = ['src', 'scripts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function newestMtime(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

export default function setup(): void {
  const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
  if (Math.max(...INPUTS.map(newestMtime)) <= built) return;
  const result = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the build failed: the tests would run a stale dist/');
}
