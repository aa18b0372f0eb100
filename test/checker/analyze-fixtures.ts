// Hand-built chains and catalogue entries for the analysis tests. Nothing here touches the network.
import { analyzeChain } from '../../src/checker/analysis/analyze.js';
import { UNSCORED_CODES } from '../../src/checker/analysis/score.js';
import type {
  ChainEnd,
  ChainTrace,
  CheckMode,
  CheckResult,
  CookieRecord,
  Hop,
  NetworkDefinition,
  PageFacts,
} from '../../src/checker/types.js';

function def(partial: Partial<NetworkDefinition> & Pick<NetworkDefinition, 'id' | 'name' | 'role'>): NetworkDefinition {
  return {
    hosts: [],
    paths: [],
    linkParams: [],
    signatureParams: [],
    deepLinkParam: null,
    deepLinkPathPattern: null,
    clickIdParams: [],
    cookieNames: [],
    defaultWindowDays: null,
    sources: ['test'],
    ...partial,
  };
}

export const AWIN = def({
  id: 'awin',
  name: 'Awin',
  role: 'network',
  hosts: ['www.awin1.com'],
  linkParams: ['awinmid', 'awinaffid', 'clickref', 'ued'],
  deepLinkParam: 'ued',
  clickIdParams: ['awc'],
  cookieNames: ['_aw_m_*'],
});
export const SKIMLINKS = def({
  id: 'skimlinks',
  name: 'Skimlinks',
  role: 'aggregator',
  hosts: ['go.skimresources.com'],
  linkParams: ['id', 'xs', 'url'],
  deepLinkParam: 'url',
});
export const PARTNERIZE = def({
  id: 'partnerize',
  name: 'Partnerize',
  role: 'network',
  hosts: ['prf.hn'],
  deepLinkPathPattern: '/destination:(.+)$',
  clickIdParams: ['clickref'],
});
export const BITLY = def({ id: 'bitly', name: 'Bitly', role: 'shortener', hosts: ['bit.ly'] });
/** A programme whose links carry no click id to the merchant and name no cookie (ClickBank-like). */
export const HOPLINK = def({ id: 'hoplink', name: 'HopLink', role: 'network', hosts: ['*.hop.example.net'] });
/** Several alternative click-id names; one is enough. */
export const MULTI = def({
  id: 'multi',
  name: 'Multi',
  role: 'network',
  hosts: ['t.multi.example'],
  clickIdParams: ['tid', 'transaction_id'],
});

export const LANDING = 'https://shop.example.com/product/42';
export const AWIN_LINK = `https://www.awin1.com/cread.php?awinmid=1&awinaffid=2&ued=${encodeURIComponent(LANDING)}`;

export function hop(url: string, over: Partial<Hop> = {}): Hop {
  return {
    url,
    status: 200,
    location: null,
    kind: 'http',
    timeMs: 100,
    network: null,
    paramsAdded: [],
    paramsRemoved: [],
    cookies: [],
    error: null,
    ...over,
  };
}

export function redirect(url: string, location: string, over: Partial<Hop> = {}): Hop {
  return hop(url, { status: 302, location, ...over });
}

export function cookie(name: string, setByHop: number, over: Partial<CookieRecord> = {}): CookieRecord {
  const firstParty = over.firstParty ?? true;
  return {
    name,
    domain: firstParty ? 'shop.example.com' : 'awin1.com',
    path: '/',
    expiresAt: '2026-01-01T00:00:00.000Z',
    expiryDays: 365,
    secure: true,
    httpOnly: false,
    sameSite: 'lax',
    firstParty,
    setByHop,
    ...over,
  };
}

export function page(over: Partial<PageFacts> = {}): PageFacts {
  return {
    contentType: 'text/html',
    title: 'Trail shoe 42 | Shop',
    botWall: false,
    availability: 'in_stock',
    scriptNavigation: false,
    ...over,
  };
}

export interface Scenario {
  submittedUrl?: string;
  hops: Hop[];
  defs?: (NetworkDefinition | null)[];
  cookies?: CookieRecord[];
  end?: ChainEnd;
  landing?: PageFacts | null;
  mode?: CheckMode;
}

export function run(s: Scenario): CheckResult {
  const trace: ChainTrace = {
    hops: s.hops,
    end: s.end ?? { reason: 'landed' },
    landing: s.landing === undefined ? page() : s.landing,
    cookies: s.cookies ?? [],
  };
  return analyzeChain({
    submittedUrl: s.submittedUrl ?? s.hops[0]?.url ?? '',
    trace,
    hopNetworks: s.defs ?? s.hops.map(() => null),
    mode: s.mode ?? 'http',
  });
}

/** The healthy Awin chain: https, 302, fast, awc at landing, a first-party _aw_m_ cookie and Awin's own cookie. */
export function healthy(): Required<Pick<Scenario, 'hops' | 'defs' | 'cookies'>> & Scenario {
  const landingUrl = `${LANDING}?awc=1_abc`;
  return {
    hops: [redirect(AWIN_LINK, landingUrl, { timeMs: 120 }), hop(landingUrl, { timeMs: 200 })],
    defs: [AWIN, null],
    cookies: [cookie('aw1', 0, { firstParty: false }), cookie('_aw_m_1', 1)],
  };
}

/** The link's own findings, in order; the privacy-tool warnings are asserted by test/checker/privacy. */
export const codes = (result: CheckResult): string[] =>
  result.issues.map((issue) => issue.code).filter((code) => !UNSCORED_CODES.includes(code));
