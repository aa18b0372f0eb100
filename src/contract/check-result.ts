// What the engine decides about one link (CONTRACT.md section 3, "The check"), declared once: the API's check
// (check.ts) is these fields plus identity and lifecycle, and the engine's types (src/checker/types.ts) are their
// Static<> types, so a field changed here changes both and the compiler finds every place that disagrees.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './common.js';

/** The agents of CONTRACT.md section 10, in the contract's order. */
export const PRIVACY_AGENT_IDS = [
  'chrome',
  'safari',
  'safari_private',
  'firefox',
  'firefox_strict',
  'brave',
  'adguard_url_tracking',
  'clearurls',
] as const;
export type PrivacyAgentId = (typeof PRIVACY_AGENT_IDS)[number];

export const NetworkRef = Type.Object({
  id: Type.String({ description: 'snake_case catalogue id, e.g. awin' }),
  name: Type.String(),
  role: Type.Union([Type.Literal('network'), Type.Literal('aggregator'), Type.Literal('shortener')]),
});

export const Cookie = Type.Object(
  {
    name: Type.String(),
    domain: Type.String(),
    path: Type.String(),
    expiresAt: Nullable(Type.String({ format: 'date-time' })),
    expiryDays: Nullable(Type.Number()),
    secure: Type.Boolean(),
    httpOnly: Type.Boolean(),
    // The engine lower-cases the attribute and keeps only the three values browsers know (checker/analysis/cookies.ts).
    sameSite: Nullable(Type.Unsafe<'strict' | 'lax' | 'none'>({ type: 'string', enum: ['strict', 'lax', 'none'] })),
    firstParty: Type.Boolean({ description: "Set on the landing page's registrable domain" }),
    setByHop: Type.Integer(),
  },
  { description: 'A cookie the chain set. Values are never stored or shown.' },
);

export const Hop = Type.Object({
  url: Type.String(),
  status: Nullable(Type.Integer()),
  location: Nullable(Type.String()),
  kind: Type.Union([Type.Literal('http'), Type.Literal('meta-refresh'), Type.Literal('javascript')]),
  timeMs: Type.Number(),
  network: Nullable(NetworkRef),
  paramsAdded: Type.Array(Type.String()),
  paramsRemoved: Type.Array(Type.String()),
  cookies: Type.Array(Cookie),
  error: Nullable(Type.String({ description: 'Why no response arrived (DNS, refused, timeout, blocked)' })),
});

export const Issue = Type.Object({
  code: Type.String({ description: 'Stable snake_case code, see docs/issues.md' }),
  severity: Type.Union([Type.Literal('critical'), Type.Literal('warning'), Type.Literal('info')]),
  title: Type.String(),
  description: Type.String(),
  fix: Type.String(),
  hop: Nullable(Type.Integer()),
});

export const Consent = Type.Object({
  platform: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
  scenarios: Type.Array(
    Type.Object({
      scenario: Type.Union([Type.Literal('no_interaction'), Type.Literal('accept_all'), Type.Literal('reject_all')]),
      clickIdPresent: Type.Boolean(),
      attributionCookies: Type.Array(Type.String()),
    }),
  ),
});

export const PrivacyEntry = Type.Object(
  {
    agent: Type.Union(
      PRIVACY_AGENT_IDS.map((id) => Type.Literal(id)),
      { description: 'The browser or extension' },
    ),
    clickIdSurvives: Type.Boolean({ description: "The network's click id reaches the landing page for this agent's users" }),
    trackerVisited: Type.Boolean({ description: "The network's own hop still runs (false: the agent skips it)" }),
    strippedParameters: Type.Array(Type.String(), { description: 'Parameters the agent removes along the chain' }),
    cookieLifetimeDays: Nullable(
      Type.Number({ description: "Effective lifetime of the landing site's attribution cookie for this agent" }),
    ),
  },
  { description: 'CONTRACT.md section 10; sources in docs/privacy.md' },
);

/**
 * A completed check's result. The API's check shows the fields the engine always fills (willTrack, healthScore…)
 * as null until the check completes; the ones nullable here are null in a completed check too.
 */
export const CheckResult = Type.Object({
  willTrack: Type.Boolean(),
  healthScore: Type.Integer({ minimum: 0, maximum: 100 }),
  network: Nullable(Type.String({ description: 'Display name of the network whose click id must survive' })),
  networkId: Nullable(Type.String()),
  networks: Type.Array(NetworkRef),
  finalUrl: Nullable(Type.String()),
  finalStatus: Nullable(Type.Integer()),
  redirectCount: Type.Integer(),
  totalRedirectTimeMs: Type.Number(),
  hops: Type.Array(Hop),
  trackingParameterPresent: Type.Boolean(),
  trackingParameters: Type.Object({
    expected: Type.Array(Type.String()),
    present: Type.Array(Type.String()),
    missing: Type.Array(Type.String()),
  }),
  firstPartyCookieSet: Type.Boolean(),
  thirdPartyCookieSet: Type.Boolean(),
  cookieExpiryDays: Nullable(Type.Number()),
  cookies: Type.Array(Cookie),
  issues: Type.Array(Issue),
  mode: Type.Union([Type.Literal('http'), Type.Literal('browser')]),
  consent: Nullable(Consent),
  privacy: Nullable(
    Type.Array(PrivacyEntry, {
      description: 'One entry per agent: chrome, safari, safari_private, firefox, firefox_strict, brave, adguard_url_tracking, clearurls',
    }),
  ),
});

export type NetworkRef = Static<typeof NetworkRef>;
export type CookieRecord = Static<typeof Cookie>;
export type Hop = Static<typeof Hop>;
export type Issue = Static<typeof Issue>;
export type ConsentResult = Static<typeof Consent>;
export type PrivacyEntry = Static<typeof PrivacyEntry>;
export type CheckResultFields = Static<typeof CheckResult>;
