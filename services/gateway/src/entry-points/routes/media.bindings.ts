import type { Request } from 'express';
import { MEDIA_IMPORT_RPC_TIMEOUT_MS, Routes, Rpc, type RpcOutput } from '@postbus/contracts';
import type { RouteBinding } from './binding';

/** ?limit=&cursor= as the RPC expects them; a non-number limit reaches validation as null and is refused there. */
function listQuery(req: Request): Record<string, unknown> {
  const q: Record<string, unknown> = {};
  if (req.query.limit !== undefined)
    q.limit = typeof req.query.limit === 'string' && req.query.limit.trim() !== '' ? Number(req.query.limit) : null;
  if (req.query.cursor !== undefined) q.cursor = req.query.cursor;
  return q;
}

/** POST /api/v1/media itself is streamed to media (proxy table); these are its JSON routes. */
export const mediaBindings: RouteBinding[] = [
  {
    route: Routes.importMediaFromUrl,
    input: (req) => req.body ?? {},
    reply: ({ deduplicated, ...body }: RpcOutput<typeof Rpc.mediaImportFromUrl>) => ({
      status: deduplicated ? 200 : 201,
      body,
    }),
    timeoutMs: MEDIA_IMPORT_RPC_TIMEOUT_MS,
  },
  // The signed URL is fresh on every read; the asset's version is the rest.
  {
    route: Routes.getMedia,
    input: (req) => ({ mediaId: req.params.mediaId }),
    version: ({ url: _url, ...asset }: RpcOutput<typeof Rpc.mediaGet>) => asset,
  },
  { route: Routes.createUploadUrl, input: (req) => req.body ?? {} },
  { route: Routes.listMedia, input: listQuery },
  { route: Routes.deleteMedia, input: (req) => ({ mediaId: req.params.mediaId }) },
];
