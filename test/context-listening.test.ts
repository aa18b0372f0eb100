// ctx.config is never reassigned: the port bound at listen time (PORT=0) reaches the public URL through
// ctx.listeningOn, once (src/context.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('ctx.listeningOn', () => {
  it('puts the bound port into the public URL, once', async () => {
    t = await startTestApp({ worker: false });
    const before = t.ctx.config;
    t.ctx.listeningOn(43210, {});
    expect(t.ctx.config.publicUrl).toBe('http://127.0.0.1:43210');
    expect(t.ctx.config.port).toBe(43210);
    expect(before.publicUrl).not.toBe('http://127.0.0.1:43210');
    expect(() => t?.ctx.listeningOn(43211, {})).toThrow(/set once/);
    expect(t.ctx.config.port).toBe(43210);
  });

  it('keeps a configured public URL', async () => {
    t = await startTestApp({ worker: false, env: { TRACKCHECK_PUBLIC_URL: 'https://tc.example.com' } });
    t.ctx.listeningOn(43210, { TRACKCHECK_PUBLIC_URL: 'https://tc.example.com' });
    expect(t.ctx.config.publicUrl).toBe('https://tc.example.com');
  });
});
