// One or more realistic end-to-end chains per issue code (runCheck over the simulator), each asserting the
// exact set of codes raised, the code's severity and hop, and the verdict. The table is typed
// Record<LinkIssueCode, …>, so the compiler demands a scenario for every code a link check can raise (the
// landing, attribution and chain parts of the catalogue); the last tests check that every such code was really
// produced by the engine and that the contract's codes are all in the catalogue. The consent part of the
// catalogue is raised only by cmp checks in a browser and is proven by their own suite.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UNSCORED_CODES } from '../../../src/checker/analysis/score.js';
import { ATTRIBUTION_ISSUES } from '../../../src/checker/issues/attribution.js';
import { CHAIN_ISSUES } from '../../../src/checker/issues/chain.js';
import { LANDING_ISSUES } from '../../../src/checker/issues/landing.js';
import { ISSUE_CODES, severityOf, type IssueCode } from '../../../src/checker/issues/catalogue.js';
import { ATTRIBUTION_SCENARIOS } from '../../fixtures/scenarios/attribution-scenarios.js';
import { CHAIN_SCENARIOS } from '../../fixtures/scenarios/chain-scenarios.js';
import { LANDING_SCENARIOS } from '../../fixtures/scenarios/landing-scenarios.js';
import type { IssueScenario } from '../../fixtures/scenarios/merchant.js';
import { explain, issueCodes, startScenarioWeb, withoutTimingFinding, type ScenarioWeb } from '../../fixtures/scenarios/scenario-web.js';
import { CONTRACT_CODES } from '../../fixtures/contract-codes.js';

const LINK_ISSUES = { ...LANDING_ISSUES, ...ATTRIBUTION_ISSUES, ...CHAIN_ISSUES };
type LinkIssueCode = keyof typeof LINK_ISSUES;
const LINK_CODES = Object.keys(LINK_ISSUES) as LinkIssueCode[];
const TABLE: Record<LinkIssueCode, IssueScenario[]> = { ...LANDING_SCENARIOS, ...ATTRIBUTION_SCENARIOS, ...CHAIN_SCENARIOS };

let sw: ScenarioWeb;
const produced = new Set<string>();

beforeAll(async () => {
  sw = await startScenarioWeb();
});
beforeEach(() => sw.web.reset());
afterAll(async () => {
  await sw.close();
});

describe.each(LINK_CODES.map((code) => [code] as const))('%s', (code) => {
  const scenarios = TABLE[code];
  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, scenario) => {
    const { url, options } = scenario.build(sw);
    const checked = await sw.check(url, options);
    const result = scenario.codes.includes('slow_redirect_chain') ? checked : withoutTimingFinding(checked);
    const why = explain(result);
    for (const issue of result.issues) produced.add(issue.code);

    expect(issueCodes(result), why).toEqual([...scenario.codes].sort());
    const raised = result.issues.filter((issue) => issue.code === code);
    expect(raised, why).toHaveLength(1);
    expect(raised[0]?.severity).toBe(severityOf(code));
    expect(raised[0]?.hop, why).toBe(scenario.hop ?? null);
    expect(result.willTrack, why).toBe(scenario.willTrack);
    // The score bands (docs/issues.md): a critical issue caps at 40, none keeps it above 40.
    const critical = result.issues.some((issue) => issue.severity === 'critical');
    if (critical) expect(result.healthScore).toBeLessThanOrEqual(40);
    else expect(result.healthScore).toBeGreaterThanOrEqual(45);
    for (const issue of result.issues) {
      expect(issue.description.length).toBeGreaterThan(20);
      expect(issue.fix.length).toBeGreaterThan(20);
      expect(issue.hop === null || (issue.hop >= 0 && issue.hop < result.hops.length)).toBe(true);
    }
    scenario.verify?.(result, sw);
  });
});

describe('coverage', () => {
  it('every code a link check can raise was produced end to end by at least one scenario', () => {
    expect(LINK_CODES.filter((code) => !produced.has(code))).toEqual([]);
    // …and link checks raised nothing outside their part of the catalogue (and the privacy-tool warnings).
    expect([...produced].filter((code) => !(LINK_CODES as string[]).includes(code) && !UNSCORED_CODES.includes(code))).toEqual([]);
    expect(LINK_CODES.every((code) => (ISSUE_CODES as string[]).includes(code))).toBe(true);
  });

  it('the catalogue has every code of the contract, with the contract’s severity', () => {
    for (const [code, severity] of Object.entries(CONTRACT_CODES)) {
      expect(ISSUE_CODES as readonly string[], code).toContain(code);
      expect(severityOf(code as IssueCode), code).toBe(severity);
    }
  });

  it('no DNS query left the engine except the ones scenarios made on purpose', () => {
    expect(
      sw.dnsQueries.filter((name) => !/^(www\.retired-shoe-shop\.co\.uk|staging\.example-shoes\.co\.uk|(staging\.)?localhost)$/.test(name)),
    ).toEqual([]);
  });
});
