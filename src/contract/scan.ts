import { Type } from '@sinclair/typebox';
import { Data, Nullable } from './common.js';
import { VERDICTS } from './verdict.js';

const checkType = Type.Union([Type.Literal('link'), Type.Literal('cmp')]);
const checkStatus = Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')]);

const ScanFinding = Type.Object({
  page: Type.String({ description: 'The scanned page the finding is about' }),
  code: Type.Union([Type.Literal('merchant_multiple_networks'), Type.Literal('sponsored_rel_missing')], {
    description: 'Stable code, see docs/issues.md',
  }),
  severity: Type.Literal('info'),
  title: Type.String(),
  description: Type.String(),
  fix: Type.String(),
  links: Type.Array(Type.String(), { description: 'The page links concerned, in page order' }),
});

export const Scan = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    url: Type.String({ description: 'The page or sitemap, exactly as submitted' }),
    status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')], {
      description: 'queued: the page is not read yet; running: its links are being checked; failed: no page could be read (see error)',
    }),
    render: Type.Boolean({ description: 'Links read from the page rendered in the browser, after its scripts ran' }),
    checkType,
    pagesScanned: Type.Integer({ description: 'Pages read (1 for a page; up to TRACKCHECK_SCAN_MAX_PAGES for a sitemap)' }),
    linksFound: Type.Integer({ description: 'Distinct http(s) links found on the scanned pages, affiliate or not' }),
    total: Type.Integer({ description: 'Affiliate links checked (at most 500)' }),
    completed: Type.Integer({ description: 'Checks with a verdict' }),
    failed: Type.Integer({ description: 'Checks the checker could not run' }),
    createdAt: Type.String({ format: 'date-time' }),
    completedAt: Nullable(Type.String({ format: 'date-time' })),
    summary: Type.Object(
      { willTrack: Type.Integer(), wontTrack: Type.Integer(), couldNotVerify: Type.Integer(), noTrackingFound: Type.Integer() },
      { description: 'The checked links counted by verdict; links still running count nowhere' },
    ),
    links: Type.Array(
      Type.Object({
        page: Type.String({ description: 'The page the link was found on' }),
        url: Type.String({ description: 'The link, resolved against the page' }),
        text: Type.String({ description: 'Anchor text (else title, aria-label or image alt); empty when none' }),
        slug: Type.String({ description: 'GET /v1/checks/{slug} for the full check' }),
        status: checkStatus,
        rel: Type.Array(Type.String(), { description: 'The link’s rel tokens (sponsored, nofollow…)' }),
        verdict: Nullable(
          Type.Union(
            VERDICTS.map((v) => Type.Literal(v)),
            { description: 'null until the check completes' },
          ),
        ),
      }),
      { description: 'The checked links, in page order' },
    ),
    findings: Type.Array(ScanFinding, { description: 'Info-level findings across one page’s links, set when the scan completes' }),
    error: Nullable(Type.Object({ code: Type.String(), message: Type.String() }, { description: 'Why the scan failed; null otherwise' })),
  },
  { $id: 'Scan', title: 'Scan' },
);

export const CreateScanBody = Type.Object(
  {
    url: Type.String({ description: 'An http(s) page or XML sitemap (<urlset>, <sitemapindex>, gzip too)' }),
    render: Type.Optional(Type.Boolean({ description: 'Read the links after the page’s scripts ran, in the browser (default false)' })),
    check_type: Type.Optional(checkType),
  },
  { additionalProperties: false },
);

export const ScanIdParams = Type.Object({ id: Type.String({ maxLength: 200 }) });

export const ListScansQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const ScanResponse = Data(Scan);
export const ScanListResponse = Type.Object({ data: Type.Array(Scan), nextCursor: Nullable(Type.String()) });
