// `npm run lint`: the layering fence of src/ (docs/architecture.md, "Layering") and a few rules against
// floating promises and dead code. Kept small on purpose: the compiler (strict tsconfig) does the rest.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const root = path.dirname(fileURLToPath(import.meta.url));
const src = path.join(root, 'src');

/** Who may import whom inside src/. A file's zone is its first folder under src/ (top-level files such as app.ts, the
 * composition root, are in no zone). `allow`: the only zones it may import; `deny`: zones (or deeper paths) it may not. */
const ZONES = [
  { zone: 'checker', allow: ['checker', 'lib', 'contract'] },
  { zone: 'lib', allow: ['lib'] },
  { zone: 'client', allow: ['client', 'contract', 'lib'] },
  { zone: 'contract', allow: ['contract', 'lib'] },
  { zone: 'http', deny: ['store', 'web', 'cli'] },
  { zone: 'web', deny: ['store', 'cli', 'http/routes'] },
  { zone: 'cli', deny: ['store', 'web', 'http/routes'] },
  { zone: 'services', deny: ['http', 'web', 'cli'] },
  { zone: 'store', deny: ['services', 'http', 'web', 'cli', 'jobs'] },
];

const within = (target, zone) => target === zone || target.startsWith(`${zone}/`);
const list = (zones) => zones.map((z) => `src/${z}/`).join(', ');

/** The one local rule: resolves a relative specifier against the importing file and checks it against ZONES. */
const layering = {
  meta: {
    type: 'problem',
    schema: [],
    messages: { fence: "{{from}} {{rule}} ('{{specifier}}' is {{target}}). See docs/architecture.md, Layering." },
  },
  create(context) {
    const file = path.relative(src, context.filename).split(path.sep).join('/');
    if (file.startsWith('..')) return {};
    const zone = ZONES.find((z) => within(file, z.zone));
    if (!zone) return {};
    function check(node) {
      const specifier = node?.type === 'Literal' && typeof node.value === 'string' ? node.value : null;
      if (specifier === null || !specifier.startsWith('.')) return; // packages and node: builtins are not fenced here
      const target = path
        .relative(src, path.resolve(path.dirname(context.filename), specifier))
        .split(path.sep)
        .join('/');
      if (target.startsWith('..')) return;
      const bad = zone.allow ? !zone.allow.some((z) => within(target, z)) : zone.deny.some((z) => within(target, z));
      if (!bad) return;
      const rule = zone.allow ? `may import only ${list(zone.allow)}` : `may not import ${list(zone.deny)}`;
      context.report({ node, messageId: 'fence', data: { from: `src/${zone.zone}/`, rule, specifier, target: `src/${target}` } });
    }
    const fromSource = (node) => check(node.source);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: fromSource,
      TSImportType: (node) => check(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
    };
  },
};

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'data/', 'test-artifacts/', 'test/fixtures/**/*.js'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    // typescript-eslint's recommended set (it also turns off the core rules the compiler covers, such as no-undef).
    extends: [tseslint.configs.recommended],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    plugins: { trackcheck: { rules: { layering } } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { args: 'after-used', argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-unused-private-class-members': 'error',
      // Validators refuse control characters on purpose (/[\x00-\x1f]/ in config, batches, alerts, sign-in).
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'trackcheck/layering': 'error' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
