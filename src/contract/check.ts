// The check as the API shows it (CONTRACT.md section 3): identity and lifecycle, then the engine's result
// (check-result.ts) with the fields a completed check always has shown as null until it completes.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { CheckResult, type CheckResultFields } from './check-result.js';
import { VERDICTS } from './verdict.js';
import { Data, Nullable } from './common.js';

const result = CheckResult.properties;

const checkProperties = {
  slug: Type.String(),
  url: Type.String({ description: 'Exactly as submitted' }),
  checkType: Type.Union([Type.Literal('link'), Type.Literal('cmp')]),
  status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')]),
  createdAt: Type.String({ format: 'date-time' }),
  completedAt: Nullable(Type.String({ format: 'date-time' })),
  error: Nullable(
    Type.Object({ code: Type.String(), message: Type.String() }, { description: 'Why the checker could not run (status failed)' }),
  ),
  willTrack: Nullable(result.willTrack),
  verdict: Nullable(
    Type.Union(
      VERDICTS.map((v) => Type.Literal(v)),
      {
        description:
          'will_track, will_not_track, could_not_verify or no_tracking_found; null until the check completes (CONTRACT.md section 7)',
      },
    ),
  ),
  healthScore: Nullable(result.healthScore),
  network: result.network,
  networkId: result.networkId,
  networks: result.networks,
  finalUrl: result.finalUrl,
  finalStatus: result.finalStatus,
  redirectCount: Nullable(result.redirectCount),
  totalRedirectTimeMs: Nullable(result.totalRedirectTimeMs),
  hops: result.hops,
  trackingParameterPresent: Nullable(result.trackingParameterPresent),
  trackingParameters: Nullable(result.trackingParameters),
  firstPartyCookieSet: Nullable(result.firstPartyCookieSet),
  thirdPartyCookieSet: Nullable(result.thirdPartyCookieSet),
  cookieExpiryDays: result.cookieExpiryDays,
  cookies: result.cookies,
  issues: result.issues,
  mode: Nullable(result.mode),
  consent: result.consent,
  privacy: result.privacy,
} satisfies Record<keyof CheckResultFields, TSchema> & Record<string, TSchema>; // every result field is in the check

export const Check = Type.Object(checkProperties, { $id: 'Check', title: 'Check' });

/** The check exactly as GET /v1/checks/:slug serves it. */
export type CheckView = Static<typeof Check>;

export const Report = Type.Object(
  {
    ...checkProperties,
    viewCount: Type.Integer({ description: 'Views including this one' }),
    reportUrl: Type.String({ description: 'The public web page of the report' }),
    evidenceUrl: Type.String({ description: 'Plain-text dispute evidence' }),
  },
  { $id: 'Report', title: 'Report' },
);

export type ReportView = Static<typeof Report>;

export const CreateCheckBody = Type.Object(
  {
    url: Type.String({ description: 'The tracking link, exactly as a shopper would click it' }),
    check_type: Type.Optional(
      Type.Union([Type.Literal('link'), Type.Literal('cmp')], { description: 'link (default) or cmp (consent banner scenarios)' }),
    ),
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
