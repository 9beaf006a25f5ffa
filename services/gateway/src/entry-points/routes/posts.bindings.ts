import type { Request } from 'express';
import { Routes } from '@postbus/contracts';
import type { RouteBinding } from './binding';
import { queryInteger, queryList, queryValue } from './query-values';

const createReply = (data: { replayed: boolean }) => {
  const { replayed, ...body } = data;
  return { status: replayed ? 200 : 201, body };
};
const approvalReply = (data: { created: boolean }) => {
  const { created, ...body } = data;
  return { status: created ? 201 : 200, body };
};
const idempotencyKey = (req: Request) => req.header('idempotency-key') || undefined;

/** `?reshuffle=true|false` as a boolean; any other value is passed on as is and refused by posts. */
function reshuffle(req: Request): { reshuffle?: unknown } {
  const v = queryValue(req.query.reshuffle);
  if (v === undefined) return {};
  return { reshuffle: v === 'true' ? true : v === 'false' ? false : v };
}

function listInput(req: Request) {
  const q = req.query;
  const input: Record<string, unknown> = {
    status: queryList(q.status),
    platform: queryList(q.platform),
    profileId: queryValue(q.profileId),
    externalId: queryValue(q.externalId),
    category: queryValue(q.category),
    from: queryValue(q.from),
    to: queryValue(q.to),
    limit: queryInteger(q.limit),
    cursor: queryValue(q.cursor),
  };
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}

export const postBindings: RouteBinding[] = [
  {
    route: Routes.createPost,
    input: (req) => ({ mode: 'posts', body: req.body ?? null, idempotencyKey: idempotencyKey(req) }),
    reply: createReply,
  },
  {
    route: Routes.schedulePost,
    input: (req) => ({ mode: 'schedule', body: req.body ?? null, idempotencyKey: idempotencyKey(req) }),
    reply: createReply,
  },
  {
    route: Routes.publishPost,
    input: (req) => ({ mode: 'publish', body: req.body ?? null, idempotencyKey: idempotencyKey(req) }),
    reply: createReply,
  },
  {
    route: Routes.createDraft,
    input: (req) => ({ body: req.body ?? null, idempotencyKey: idempotencyKey(req) }),
    reply: createReply,
  },
  { route: Routes.validatePost, input: (req) => ({ body: req.body ?? null }) },
  { route: Routes.listPosts, input: listInput },
  { route: Routes.getPost, input: (req) => ({ id: req.params.id }), version: (post) => post, waitsForOutcome: true },
  { route: Routes.updatePost, input: (req) => ({ id: req.params.id, patch: req.body ?? null, ...reshuffle(req) }) },
  { route: Routes.cancelPost, input: (req) => ({ id: req.params.id, ...reshuffle(req) }) },
  { route: Routes.requestApproval, input: (req) => ({ id: req.params.id }), reply: approvalReply },
  { route: Routes.getApproval, input: (req) => ({ id: req.params.id }) },
];
