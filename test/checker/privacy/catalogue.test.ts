// The privacy catalogue is data reviewed like code: every entry carries a source and the date it was read, the
// agents come in the contract's order, and docs/privacy.md names every source.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRIVACY_AGENT_IDS, PRIVACY_AGENTS, type PrivacyAgent } from '../../../src/checker/privacy/index.js';
import { READ_ON, SOURCES } from '../../../src/checker/privacy/sources.js';
import type { Sourced } from '../../../src/checker/privacy/types.js';

const entries = (agent: PrivacyAgent): [string, Sourced][] => [
  [`${agent.id}`, agent],
  ...agent.strips.map((rule, i): [string, Sourced] => [`${agent.id} strips[${i}]`, rule]),
  ...agent.skips.map((rule, i): [string, Sourced] => [`${agent.id} skips[${i}]`, rule]),
  ...[agent.cookies?.scriptCap, agent.cookies?.decoratedLandingCap]
    .filter((cap): cap is NonNullable<typeof cap> => cap !== null && cap !== undefined)
    .map((cap): [string, Sourced] => [`${agent.id} cookie cap`, cap]),
];
const ALL = PRIVACY_AGENTS.flatMap(entries);
const DOC = readFileSync(new URL('../../../docs/privacy.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

describe('privacy catalogue', () => {
  it('lists the agents in the contract order', () => {
    expect(PRIVACY_AGENTS.map((a) => a.id)).toEqual([
      'chrome',
      'safari',
      'safari_private',
      'firefox',
      'firefox_strict',
      'brave',
      'adguard_url_tracking',
      'clearurls',
    ]);
    expect([...PRIVACY_AGENT_IDS]).toEqual(PRIVACY_AGENTS.map((a) => a.id));
  });

  it.each(ALL)('%s has a source and an ISO read date', (_label, entry) => {
    expect(entry.source.trim()).not.toBe('');
    expect(entry.read).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(entry.read).toBe(READ_ON);
    expect(Object.values(SOURCES)).toContain(entry.source);
  });

  it('repository sources name a path and a full commit', () => {
    for (const source of Object.values(SOURCES).filter((s) => !s.startsWith('http'))) {
      expect(source).toMatch(/^[\w.-]+\/[\w.-]+ \S+@[0-9a-f]{40}$/);
    }
  });

  it('docs/privacy.md names every source', () => {
    for (const source of Object.values(SOURCES)) expect(DOC).toContain(source);
  });

  it('has usable rules: names, parameters and scopes', () => {
    expect(new Set(PRIVACY_AGENTS.map((a) => a.name)).size).toBe(PRIVACY_AGENTS.length);
    for (const agent of PRIVACY_AGENTS) {
      for (const rule of agent.strips) {
        expect(rule.params.length).toBeGreaterThan(0);
        if (rule.scope !== undefined) expect(rule.scope.hosts.length).toBeGreaterThan(0);
      }
      for (const rule of agent.skips) {
        expect(rule.param).not.toBe('');
        expect(rule.scope.hosts.length).toBeGreaterThan(0);
      }
    }
  });

  it('Chrome touches nothing', () => {
    const chrome = PRIVACY_AGENTS[0];
    expect([chrome?.strips, chrome?.skips, chrome?.cookies]).toEqual([[], [], null]);
  });
});
