import type { Request } from 'express';
import { AppError, BULK_ROWS_MAX, POSTS_EXPORT_MAX, POSTS_PAGE_MAX, Routes, Rpc, type Post } from '@postbus/contracts';
import type { BindingRequest, RouteBinding } from './binding';
import { queryList, queryValue } from './query-values';
import { parsePostCsv, postsToCsv } from './post-csv';

/** A bulk create checks and stores each row in turn: allow far more than one create's deadline. */
const BULK_TIMEOUT_MS = 120_000;

/** `?name=true|false` → boolean; absent → false; anything else is refused. */
function flag(req: Request, name: string): boolean {
  const v = queryValue(req.query[name]);
  if (v === undefined || v === 'false') return false;
  if (v === 'true') return true;
  throw new AppError('validation_error', `${name} must be true or false.`, { field: name });
}

/** The rows of a JSON array or a text/csv body (both already bounded by the body limit). */
async function rowsOf(req: BindingRequest): Promise<unknown[]> {
  const rows = req.is('text/csv') && typeof req.body === 'string' ? await parsePostCsv(req.body) : req.body;
  if (!Array.isArray(rows))
    throw new AppError(
      'validation_error',
      'Send a JSON array of post payloads (application/json) or a CSV (text/csv).',
    );
  if (rows.length > BULK_ROWS_MAX)
    throw new AppError(
      'validation_error',
      `A bulk create holds at most ${BULK_ROWS_MAX} rows; this one has ${rows.length}.`,
    );
  const payloads: unknown[] = rows;
  return payloads;
}

function exportFilter(req: Request) {
  const q = req.query;
  const filter: Record<string, unknown> = {
    status: queryList(q.status),
    platform: queryList(q.platform),
    profileId: queryValue(q.profileId),
    category: queryValue(q.category),
    from: queryValue(q.from),
    to: queryValue(q.to),
  };
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined));
}

export const postBulkBindings: RouteBinding[] = [
  {
    route: Routes.bulkCreatePosts,
    input: () => undefined,
    async serve({ rpc, principal, req, res }) {
      const input = {
        dryRun: flag(req, 'dryRun'),
        atomic: flag(req, 'atomic'),
        rows: await rowsOf(req),
        idempotencyKey: req.header('idempotency-key') || undefined,
      };
      res.status(200).json(await rpc.call(Rpc.postsBulkCreate, input, principal, { timeoutMs: BULK_TIMEOUT_MS }));
    },
  },
  {
    route: Routes.exportPosts,
    input: () => undefined,
    async serve({ rpc, principal, req, res }) {
      const format = queryValue(req.query.format) ?? 'csv';
      if (format !== 'csv' && format !== 'json')
        throw new AppError('validation_error', 'format must be csv or json.', { field: 'format' });
      const filter = exportFilter(req);
      // Paged through the list, so the key's profile restriction and every filter rule apply as there.
      const posts: Post[] = [];
      let cursor: string | undefined;
      do {
        const page = await rpc.call(
          Rpc.postsList,
          { ...filter, limit: Math.min(POSTS_PAGE_MAX, POSTS_EXPORT_MAX - posts.length), ...(cursor && { cursor }) },
          principal,
        );
        posts.push(...page.data);
        cursor = page.nextCursor ?? undefined;
      } while (cursor && posts.length < POSTS_EXPORT_MAX);
      // More matched than one export holds: say so rather than cut silently.
      if (cursor) res.setHeader('Export-Truncated', 'true');
      if (format === 'json') res.status(200).json(posts);
      else res.status(200).type('text/csv').send(postsToCsv(posts));
    },
  },
];
