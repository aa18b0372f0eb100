import { Type } from '@sinclair/typebox';
import { PRIVACY_AGENT_IDS } from '../checker/privacy/types.js';
import { VERDICTS } from '../checker/analysis/verdict.js';
import { Data, Nullable } from './common.js';

const NetworkRef = Type.Object({
  id: Type.String({ description: 'snake_case catalogue id, e.g. awin' }),
  name: Type.String(),
  role: Type.Union([Type.Literal('network'), Type.Literal('aggregator'), Type.Literal('shortener')]),
});

const Cookie = Type.Object(
  {
    name: Type.String(),
    domain: Type.String(),
    path: Type.String(),
    expiresAt: Nullable(Type.String({ format: 'date-time' })),
    expiryDays: Nullable(Type.Number()),
    secure: Type.Boolean(),
    httpOnly: Type.Boolean(),
    sameSite: Nullable(Type.String()),
    firstParty: Type.Boolean({ description: "Set on the landing page's registrable domain" }),
    setByHop: Type.Integer(),
  },
  { description: 'A cookie the chain set. Values are never stored or shown.' },
);

const Hop = Type.Object({
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

const Issue = Type.Object({
  code: Type.String({ description: 'Stable snake_case code, see docs/issues.md' }),
  severity: Type.Union([Type.Literal('critical'), Type.Literal('warning'), Type.Literal('info')]),
  title: Type.String(),
  description: Type.String(),
  fix: Type.String(),
  hop: Nullable(Type.Integer()),
});

const Consent = Type.Object({
  platform: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
  scenarios: Type.Array(
    Type.Object({
      scenario: Type.Union([Type.Literal('no_interaction'), Type.Literal('accept_all'), Type.Literal('reject_all')]),
      clickIdPresent: Type.Boolean(),
      attributionCookies: Type.Array(Type.String()),
    }),
  ),
});

const PrivacyEntry = Type.Object(
  {
    agent: Type.Union(PRIVACY_AGENT_IDS.map((id) => Type.Literal(id)), { description: 'The browser or extension' }),
    clickIdSurvives: Type.Boolean({ description: "The network's click id reaches the landing page for this agent's users" }),
    trackerVisited: Type.Boolean({ description: "The network's own hop still runs (false: the agent skips it)" }),
    strippedParameters: Type.Array(Type.String(), { description: 'Parameters the agent removes along the chain' }),
    cookieLifetimeDays: Nullable(Type.Number({ description: "Effective lifetime of the landing site's attribution cookie for this agent" })),
  },
  { description: 'CONTRACT.md section 10; sources in docs/privacy.md' },
);

const checkProperties = {
  slug: Type.String(),
  url: Type.String({ description: 'Exactly as submitted' }),
  checkType: Type.Union([Type.Literal('link'), Type.Literal('cmp')]),
  status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')]),
  createdAt: Type.String({ format: 'date-time' }),
  completedAt: Nullable(Type.String({ format: 'date-time' })),
  error: Nullable(Type.Object({ code: Type.String(), message: Type.String() }, { description: 'Why the checker could not run (status failed)' })),
  willTrack: Nullable(Type.Boolean()),
  verdict: Nullable(
    Type.Union(VERDICTS.map((v) => Type.Literal(v)), {
      description: 'will_track, will_not_track, could_not_verify or no_tracking_found; null until the check completes (CONTRACT.md section 7)',
    }),
  ),
  healthScore: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
  network: Nullable(Type.String({ description: 'Display name of the network whose click id must survive' })),
  networkId: Nullable(Type.String()),
  networks: Type.Array(NetworkRef),
  finalUrl: Nullable(Type.String()),
  finalStatus: Nullable(Type.Integer()),
  redirectCount: Nullable(Type.Integer()),
  totalRedirectTimeMs: Nullable(Type.Number()),
  hops: Type.Array(Hop),
  trackingParameterPresent: Nullable(Type.Boolean()),
  trackingParameters: Nullable(
    Type.Object({ expected: Type.Array(Type.String()), present: Type.Array(Type.String()), missing: Type.Array(Type.String()) }),
  ),
  firstPartyCookieSet: Nullable(Type.Boolean()),
  thirdPartyCookieSet: Nullable(Type.Boolean()),
  cookieExpiryDays: Nullable(Type.Number()),
  cookies: Type.Array(Cookie),
  issues: Type.Array(Issue),
  mode: Nullable(Type.Union([Type.Literal('http'), Type.Literal('browser')])),
  consent: Nullable(Consent),
  privacy: Nullable(Type.Array(PrivacyEntry, { description: 'One entry per agent: chrome, safari, safari_private, firefox, firefox_strict, brave, adguard_url_tracking, clearurls' })),
};

export const Check = Type.Object(checkProperties, { $id: 'Check', title: 'Check' });

export const Report = Type.Object(
  {
    ...checkProperties,
    viewCount: Type.Integer({ description: 'Views including this one' }),
    reportUrl: Type.String({ description: 'The public web page of the report' }),
    evidenceUrl: Type.String({ description: 'Plain-text dispute evidence' }),
  },
  { $id: 'Report', title: 'Report' },
);

export const CreateCheckBody = Type.Object(
  {
    url: Type.String({ description: 'The tracking link, exactly as a shopper would click it' }),
    check_type: Type.Optional(Type.Union([Type.Literal('link'), Type.Literal('cmp')], { description: 'link (default) or cmp (consent banner scenarios)' })),
  },
  { additionalProperties: false },
);

export const SlugParams = Type.Object({ slug: Type.String({ maxLength: 200 }) });

export const ListChecksQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

const checkRef = Type.Ref('Check');
export const CheckResponse = Data(checkRef);
export const CheckListResponse = Type.Object({ data: Type.Array(checkRef), nextCursor: Nullable(Type.String()) });
export const ReportResponse = Data(Type.Ref('Report'));
