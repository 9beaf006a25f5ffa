import { AppError, type BulkRowResult, type Principal } from '@postbus/contracts';
import { createPosts } from './create-posts.use-case';
import { checkPostPayload } from './post-payload.rules';
import type { PostsPorts } from './posts.ports';

export interface BulkRequest {
  rows: unknown[];
  /** Apply every rule, quota included, and store nothing. */
  dryRun?: boolean;
  /** Store every row or none: one refused row refuses them all. */
  atomic?: boolean;
  /** Each row is created under `<key>:<row number>`: a retried request answers the rows already made instead of making them again. */
  idempotencyKey?: string;
}

/** Thrown inside the transaction to roll it back once every row has its result. */
class RollBack extends Error {}

/** The field a refusal that names none concerns, by its code. */
const FIELD_OF_CODE: Record<string, string> = {
  invalid_profile_ids: 'profileIds',
  profile_scope_denied: 'profileIds',
  media_not_found: 'mediaId',
  media_gone: 'mediaId',
};

/**
 * Creates each row exactly as a single create would (every posting rule and the quota apply per
 * row, in order). dryRun and atomic run the rows in one transaction, each in its own savepoint,
 * and roll it back when nothing is to be kept: dryRun always, atomic on any refusal.
 */
export async function bulkCreate(
  ports: PostsPorts,
  principal: Principal,
  req: BulkRequest,
): Promise<{ results: BulkRowResult[]; stored: boolean }> {
  if (!req.dryRun && !req.atomic) {
    const results = await eachRow(ports, principal, req.rows, req.idempotencyKey);
    return { results, stored: results.some((r) => 'postIds' in r) };
  }
  let results: BulkRowResult[] = [];
  try {
    await ports.ds.transaction(async (m) => {
      // The same use case, its reads and writes bound to this transaction.
      results = await eachRow(
        { ...ports, ds: m as unknown as PostsPorts['ds'] },
        principal,
        req.rows,
        req.idempotencyKey,
      );
      if (req.dryRun || results.some((r) => 'code' in r)) throw new RollBack();
    });
  } catch (err) {
    if (!(err instanceof RollBack)) throw err;
    return { results, stored: false };
  }
  return { results, stored: true };
}

async function eachRow(
  ports: PostsPorts,
  principal: Principal,
  rows: unknown[],
  idempotencyKey?: string,
): Promise<BulkRowResult[]> {
  const results: BulkRowResult[] = [];
  for (const [i, body] of rows.entries()) {
    const row = i + 1;
    const [problem] = checkPostPayload(body, { now: ports.clock(), requireScheduledTime: false });
    if (problem) {
      results.push({ row, code: problem.code, error: problem.message, ...(problem.field && { field: problem.field }) });
      continue;
    }
    try {
      const { postIds } = await createPosts(
        ports,
        principal,
        'posts',
        body,
        idempotencyKey ? { idempotencyKey: `${idempotencyKey}:${row}` } : {},
      );
      results.push({ row, postIds });
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      const field = FIELD_OF_CODE[err.code];
      results.push({ row, code: err.code, error: err.message, ...(field && { field }) });
    }
  }
  return results;
}
