// The package as a library, the way another project uses it: `npm pack`, then a plain Node ESM project (no tsx,
// strict TypeScript settings of its own) installs the tarball, type-checks a program that imports the typed
// client from `trackcheck/client` (and the root entry), compiles it and runs it with plain node against a
// running service. The client entry must not load Chromium, the database or any native module.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, startService, type RunningService } from '../helpers/spawn-service.js';

const run = promisify(execFile);

const PROGRAM = `import { TrackcheckClient, TrackcheckApiError, type Health } from 'trackcheck/client';
import { TrackcheckClient as RootClient } from 'trackcheck';

const baseUrl = process.argv[2];
if (baseUrl === undefined) throw new Error('usage: main.js <base url>');
const client = new TrackcheckClient({ baseUrl });
const health: Health = await client.health();
let refused = '';
try {
  await new RootClient({ baseUrl, retry: false }).checks.list();
} catch (err) {
  if (err instanceof TrackcheckApiError) refused = err.code;
}
console.log(JSON.stringify({ status: health.status, refused }));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    noImplicitOverride: true,
    outDir: 'dist',
    types: ['node'],
  },
  include: ['main.ts'],
};

describe('the packed package, installed by a plain Node ESM project', () => {
  let dir: string;
  let service: RunningService;
  let dataDir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-consumer-'));
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'trackcheck-consumer-data-'));
    // dist/ is built (test/global-setup.ts); packing must not build again.
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: PROJECT_ROOT });
    const tarball = readdirSync(dir).find((file) => file.endsWith('.tgz'));
    if (tarball === undefined) throw new Error('npm pack made no tarball');
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    writeFileSync(path.join(dir, 'main.ts'), PROGRAM);
    // --ignore-scripts: no native module gets built, which proves the client never needs one.
    await run('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', `./${tarball}`, '@types/node@20'], {
      cwd: dir,
    });
    service = await startService({ TRACKCHECK_DATA_DIR: dataDir });
  }, 240_000);
  afterAll(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('type-checks under strict settings, runs with plain node and calls health() on a running service', async () => {
    const tsc = path.join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc');
    await run(process.execPath, [tsc, '-p', dir], { cwd: dir }).catch((err: { stdout?: string }) => {
      throw new Error(`the consumer's type-check failed:\n${err.stdout ?? ''}`);
    });
    const { stdout } = await run(process.execPath, ['dist/main.js', service.url], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual({ status: 'ok', refused: 'authentication_required' });
  }, 60_000);

  it('refuses a type error against the client\u2019s types (the types are real, not any)', async () => {
    writeFileSync(
      path.join(dir, 'wrong.ts'),
      `import { TrackcheckClient } from 'trackcheck/client';\nconst n: number = await new TrackcheckClient({ baseUrl: 'x' }).health();\nexport {};\n`,
    );
    const tsc = path.join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc');
    const result = await run(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--module',
        'NodeNext',
        '--moduleResolution',
        'NodeNext',
        '--target',
        'ES2022',
        '--types',
        'node',
        'wrong.ts',
      ],
      { cwd: dir },
    ).then(
      () => 'compiled',
      (err: { stdout?: string }) => err.stdout ?? '',
    );
    expect(result).toMatch(/TS2322/);
  }, 60_000);
});
