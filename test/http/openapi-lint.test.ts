// The served /openapi.json passes Redocly's `recommended` ruleset (but for the license, see below): no errors, no warnings.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { servedDocument } from '../helpers/openapi.js';

describe('Redocly lint of /openapi.json', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ worker: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reports no problem with the recommended rules', async () => {
    const doc = await servedDocument(t.app);
    const config = await createConfig({
      extends: ['recommended'],
      rules: {
        // Deliberate: trackcheck is proprietary (package.json: UNLICENSED), so the API has no license to name or link,
        // and inventing one for the linter would tell readers something untrue.
        'info-license': 'off',
        'info-license-strict': 'off',
      },
    });
    const problems = await lintFromString({ source: JSON.stringify(doc, null, 2), absoluteRef: 'openapi.json', config });
    const listed = problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
    expect(listed).toEqual([]);
  });
});
