import type { Request } from 'express';
import { Routes } from '@postbus/contracts';
import type { RouteBinding } from './binding';

const createReply = (data: { replayed: boolean }) => {
  const { replayed, ...body } = data;
  return { status: replayed ? 200 : 201, body };
};
const approvalReply = (data: { created: boolean }) => {
  const { created, ...body } = data;
  return { status: created ? 201 : 200, body };
};
const idempotencyKey = (req: Request) => req.header('idempotency-key') || undefined;

/** A query value as sent: repeated parameters and `a,b` lists both become a list. */
const list = (v: unknown): string[] | undefined => {
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(',')).map((x) => x.trim()).filter(Boolean);
};
const one = (v: unknown): string | undefined => (v === undefined ? undefined : Array.isArray(v) ? String(v[0]) : String(v));
/** `limit=20` → 20; anything else is passed on as is and refused by the contract with validation_error. */
const integer = (v: unknown): unknown => {
  const s = one(v);
  return s !== undefined && /^\d{1,6}$/.test(s) ? Number(s) : s;
};

/** `?reshuffle=true|false` as a boolean; any other value is passed on as is and refused by posts. */
function reshuffle(req: Request): { reshuffle?: unknown } {
  const v = one(req.query.reshuffle);
  if (v === undefined) return {};
  return { reshuffle: v === 'true' ? true : v === 'false' ? false : v };
}

function listInput(req: Request) {
  const q = req.query;
  const input: Record<string, unknown> = {
    status: list(q.status),
    platform: list(q.platform),
    profileId: one(q.profileId),
    externalId: one(q.externalId),
    category: one(q.category),
    from: one(q.from),
    to: one(q.to),
    limit: integer(q.limit),
    cursor: one(q.cursor),
  };
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}

export const postBindings: RouteBinding[] = [
  { route: Routes.createPost, input: (req) => ({ mode: 'posts', body: req.body ?? null, idempotencyKey: idempotencyKey(req) }), reply: createReply },
  { route: Routes.schedulePost, input: (req) => ({ mode: 'schedule', body: req.body ?? null, idempotencyKey: idempotencyKey(req) }), reply: createReply },
  { route: Routes.publishPost, input: (req) => ({ mode: 'publish', body: req.body ?? null, idempotencyKey: idempotencyKey(req) }), reply: createReply },
  { route: Routes.createDraft, input: (req) => ({ body: req.body ?? null, idempotencyKey: idempotencyKey(req) }), reply: createReply },
  { route: Routes.validatePost, input: (req) => ({ body: req.body ?? null }) },
  { route: Routes.listPosts, input: listInput },
  { route: Routes.getPost, input: (req) => ({ id: req.params.id }), version: (post) => post, waitsForOutcome: true },
  { route: Routes.updatePost, input: (req) => ({ id: req.params.id, patch: req.body ?? null, ...reshuffle(req) }) },
  { route: Routes.cancelPost, input: (req) => ({ id: req.params.id, ...reshuffle(req) }) },
  { route: Routes.requestApproval, input: (req) => ({ id: req.params.id }), reply: approvalReply },
  { route: Routes.getApproval, input: (req) => ({ id: req.params.id }) },
];
