import { Type } from '@sinclair/typebox';
import { Data, Nullable } from './common.js';

const checkType = Type.Union([Type.Literal('link'), Type.Literal('cmp')]);

export const Batch = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed')], {
      description: 'completed once every check is completed or failed; a link that fails never fails the batch',
    }),
    checkType,
    total: Type.Integer({ description: 'Links in the batch' }),
    completed: Type.Integer({ description: 'Checks with a verdict' }),
    failed: Type.Integer({ description: 'Checks the checker could not run (see each check’s error)' }),
    createdAt: Type.String({ format: 'date-time' }),
    completedAt: Nullable(Type.String({ format: 'date-time' })),
    checks: Type.Array(
      Type.Object({
        url: Type.String({ description: 'Exactly as submitted' }),
        slug: Type.String({ description: 'GET /v1/checks/{slug} for the full check' }),
        status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')]),
      }),
      { description: 'One per submitted link, in submission order' },
    ),
  },
  { $id: 'Batch', title: 'Batch' },
);

export const CreateBatchBody = Type.Object(
  {
    urls: Type.Array(Type.String(), {
      description: '1 to 500 tracking links (more: 400 too_many_urls). All are validated first; one invalid link refuses the batch, naming its index.',
    }),
    check_type: Type.Optional(Type.Union([Type.Literal('link'), Type.Literal('cmp')], { description: 'link (default) or cmp, for every link' })),
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
