#!/usr/bin/env node
// The build: src/ → dist/ with tsc (JavaScript, declarations, source maps), then each page script
// (src/checker/browser/page-scripts/*.ts, code that runs inside Chromium) type-checked against the DOM and
// bundled by esbuild into dist/page-scripts/<name>.js: one self-contained expression whose value is the
// script's function. Node never serializes one of its own functions into a page (docs/architecture.md).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const PAGE_SOURCES = path.join(root, 'src/checker/browser/page-scripts');
const PAGE_OUT = path.join(root, 'dist/page-scripts');
/** What every page script may assume: the Chromium this project drives (Debian's, 120 or newer). */
const PAGE_TARGET = 'chrome120';

function run(args) {
  const result = spawnSync(process.execPath, [tsc, ...args], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

rmSync(path.join(root, 'dist'), { recursive: true, force: true });
run(['-p', 'tsconfig.build.json']);
run(['-p', path.relative(root, PAGE_SOURCES)]);

mkdirSync(PAGE_OUT, { recursive: true });
const names = readdirSync(PAGE_SOURCES)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.slice(0, -3));
await Promise.all(
  names.map(async (name) => {
    const out = await build({
      entryPoints: [path.join(PAGE_SOURCES, `${name}.ts`)],
      bundle: true,
      write: false,
      format: 'iife',
      globalName: '__trackcheckPage',
      platform: 'browser',
      target: PAGE_TARGET,
      // No keepNames: its `__name` helper is what broke serialized functions under tsx (issue 12).
      keepNames: false,
      minifySyntax: true,
      legalComments: 'none',
      logLevel: 'error',
    });
    const code = out.outputFiles[0].text;
    // A function expression, local to itself: nothing is left on the page's window.
    writeFileSync(path.join(PAGE_OUT, `${name}.js`), `(() => {\n${code}return __trackcheckPage.default;\n})()\n`);
  }),
);
// When this build finished: the test setup rebuilds when a source is newer (test/global-setup.ts).
writeFileSync(path.join(root, 'dist/.build-stamp'), `${new Date().toISOString()}\n`);
