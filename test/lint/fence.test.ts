// The layering fence (eslint.config.js, docs/architecture.md "Layering") really fails a forbidden import: the real
// config, linting text that imports store/ from the checker and from the web pages, reports it with the rule's message
// naming what is allowed. Allowed imports of the same files stay quiet.
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/lib/package-root.js';

const root = packageRoot();
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, 'eslint.config.js') });

async function fenceMessages(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'trackcheck/layering' || m.fatal).map((m) => m.message);
}

describe('the layering fence', () => {
  // The first lint builds the type-aware program of the whole project (tens of seconds on a busy machine); later ones
  // reuse it.
  beforeAll(async () => {
    await fenceMessages('src/lib/ids.ts', '');
  }, 180_000);

  it('refuses store/ in the checker, naming the folders the checker may import', async () => {
    const messages = await fenceMessages(
      'src/checker/check.ts',
      "import { openStore } from '../store/index.js';\nexport const open = openStore;\n",
    );
    expect(messages).toEqual([
      "src/checker/ may import only src/checker/, src/lib/, src/contract/ ('../store/index.js' is src/store/index.js). See docs/architecture.md, Layering.",
    ]);
  });

  it('refuses store/ in a deeper checker folder too (the specifier is resolved against the file)', async () => {
    const messages = await fenceMessages('src/checker/follow/chain.ts', "export type { Store } from '../../store/index.js';\n");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(
      "src/checker/ may import only src/checker/, src/lib/, src/contract/ ('../../store/index.js' is src/store/index.js)",
    );
  });

  it('refuses store/ in the web pages, and a dynamic import as well', async () => {
    const messages = await fenceMessages(
      'src/web/routes.ts',
      "import type { Store } from '../store/index.js';\nexport type S = Store;\nexport const load = () => import('../store/errors.js');\n",
    );
    expect(messages).toHaveLength(2);
    expect(messages[0]).toBe(
      "src/web/ may not import src/store/, src/cli/, src/http/routes/ ('../store/index.js' is src/store/index.js). See docs/architecture.md, Layering.",
    );
    expect(messages[1]).toContain("('../store/errors.js' is src/store/errors.js)");
  });

  it('lets the allowed imports through', async () => {
    expect(await fenceMessages('src/checker/check.ts', "export { canonicalJson } from '../lib/canonical-json.js';\n")).toEqual([]);
    expect(await fenceMessages('src/web/routes.ts', "export type { ChecksService } from '../services/checks.js';\n")).toEqual([]);
  });
});
