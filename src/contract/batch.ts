import { Type } from '@sinclair/typebox';
import { Data, Nullable } from './common.js';
import { VERDICTS } from './verdict.js';

/** The submitter's own columns of a batch (services/batch-columns.ts checks them; the CLI before submitting). */
export const MAX_INPUT_COLUMNS = 50;
export const MAX_COLUMN_NAME_LENGTH = 100;
export const MAX_CELL_LENGTH = 1000;
/** Every cell of one batch together: bounds the request body and what a batch stores. */
export const MAX_INPUT_CHARS = 500_000;

const checkType = Type.Union([Type.Literal('link'), Type.Literal('cmp')]);

export const Batch = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Nullable(Type.String({ description: 'The name given at submission (1–100 characters), or null' })),
    status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed')], {
      description: 'completed once every check is completed or failed; a link that fails never fails the batch',
    }),
    checkType,
    total: Type.Integer({ description: 'Links in the batch' }),
    completed: Type.Integer({ description: 'Checks with a verdict' }),
    failed: Type.Integer({ description: 'Checks the checker could not run (see each check’s error)' }),
    createdAt: Type.String({ format: 'date-time' }),
    completedAt: Nullable(Type.String({ format: 'date-time' })),
    summary: Type.Object(
      {
        willTrack: Type.Integer(),
        wontTrack: Type.Integer(),
        couldNotVerify: Type.Integer({ description: 'Failed checks included' }),
        noTrackingFound: Type.Integer(),
      },
      { description: 'The finished links counted by verdict (the names of a scan’s summary); links still running count nowhere' },
    ),
    checks: Type.Array(
      Type.Object({
        url: Type.String({ description: 'Exactly as submitted' }),
        slug: Type.String({ description: 'GET /v1/checks/{slug} for the full check' }),
        status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')]),
        verdict: Nullable(
          Type.Union(
            VERDICTS.map((v) => Type.Literal(v)),
            { description: 'The check’s verdict; null until it completes (a failed check: could_not_verify)' },
          ),
        ),
      }),
      { description: 'One per submitted link, in submission order' },
    ),
  },
  { $id: 'Batch', title: 'Batch' },
);

export const CreateBatchBody = Type.Object(
  {
    urls: Type.Array(Type.String(), {
      description:
        '1 to 500 tracking links (more: 400 too_many_urls). All are validated first; one invalid link refuses the batch, naming its index.',
    }),
    check_type: Type.Optional(
      Type.Union([Type.Literal('link'), Type.Literal('cmp')], { description: 'link (default) or cmp, for every link' }),
    ),
    name: Type.Optional(
      Nullable(
        Type.String({
          description: 'A name for the batch, 1–100 characters once trimmed (blank or longer: 400 invalid_parameter); null or absent: none',
        }),
      ),
    ),
    columns: Type.Optional(
      Type.Array(Type.String({ maxLength: MAX_COLUMN_NAME_LENGTH }), {
        maxItems: MAX_INPUT_COLUMNS,
        description:
          `Your own columns (campaign, placement…), carried to results.csv after its standard columns: up to ${MAX_INPUT_COLUMNS} ` +
          `unique names of 1–${MAX_COLUMN_NAME_LENGTH} characters. A name equal to a standard column (any case) is written as ` +
          'input_<name>. Requires values.',
      }),
    ),
    values: Type.Optional(
      Type.Array(Type.Array(Type.String({ maxLength: MAX_CELL_LENGTH })), {
        description:
          `One array of cells per link, in the order of urls, one cell per column (each at most ${MAX_CELL_LENGTH} characters, ` +
          `${MAX_INPUT_CHARS.toLocaleString('en')} in all). A length that does not match: 400 invalid_parameter, nothing created.`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const BatchIdParams = Type.Object({ id: Type.String({ maxLength: 200 }) });

export const ListBatchesQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const BatchResponse = Data(Batch);
export const BatchListResponse = Type.Object({ data: Type.Array(Batch), nextCursor: Nullable(Type.String()) });
