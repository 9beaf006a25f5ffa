import { Type, type Static } from '@sinclair/typebox';

/** Rows one bulk create may carry (JSON items or CSV records). */
export const BULK_ROWS_MAX = 500;

/** Posts one export answers at most (paged internally through the list). */
export const POSTS_EXPORT_MAX = 10_000;

export const BulkRowResultSchema = Type.Union([
  Type.Object({
    row: Type.Integer({ description: '1-based row (CSV: record after the header).' }),
    postIds: Type.Array(Type.String()),
  }),
  Type.Object({ row: Type.Integer(), code: Type.String(), error: Type.String(), field: Type.Optional(Type.String()) }),
]);
export type BulkRowResult = Static<typeof BulkRowResultSchema>;

export const BulkCreateResultSchema = Type.Object({
  results: Type.Array(BulkRowResultSchema),
  stored: Type.Boolean({ description: 'False when nothing was stored: dryRun, or atomic with a refused row.' }),
});
export type BulkCreateResult = Static<typeof BulkCreateResultSchema>;
