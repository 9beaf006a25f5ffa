import type { Logger } from '@postbus/kit';
import express, { Router, type Request, type Response } from 'express';
import { recordRequests, type ReceivedRequest } from '../requests';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { InvalidRecord, validatePostRecord } from './post-record';
import { cidOf } from './store';
import { feedPostsRoutes } from './feed-posts';
import { notificationRoutes } from './notifications';
import { passXrpcFault, sendXrpc, XrpcError, xrpcErrorHandler } from './xrpc-http';
import { plcRouter } from './oauth-discovery';
import { oauthAccessClaims, dpopAuthedDid } from './oauth-resource';
import { blueskyOAuthRouter } from './oauth-routes';

const POST = 'app.bsky.feed.post';
/** A TID record key: 13 base32-sortable characters (https://atproto.com/specs/tid); app.bsky.feed.post is keyed by TID. */
const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
const TID_CHARS = '234567abcdefghijklmnopqrstuvwxyz';

/**
 * A Bluesky PDS's XRPC endpoints under `/bluesky/xrpc/{nsid}` (https://docs.bsky.app/docs/api/http-reference):
 * sessions from app passwords, handle resolution, blobs, app.bsky.feed.post records, and the
 * AppView reads a PDS proxies (getPosts, listNotifications). A sandbox
 * user's access token is its app password. Fault operations: uploadBlob `upload`, createRecord
 * `publish` (`comment` for a reply), every other call `read`.
 */
export function blueskyRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  router.post(
    '/xrpc/com.atproto.repo.uploadBlob',
    express.raw({ type: () => true, limit: state.bluesky.limits.blobMaxBytes }),
  );
  router.use(express.json({ limit: '1mb' }));
  router.use('/oauth', express.urlencoded({ extended: false, limit: '64kb' }));
  router.use(recordRequests(state.requests, 'bluesky', () => state.now()));
  router.use('/oauth', blueskyOAuthRouter(state));
  router.use('/plc', plcRouter(state));
  const ctx = contextOf(state);
  sessionRoutes(router, ctx);
  blobRoutes(router, ctx);
  recordRoutes(router, ctx);
  feedPostsRoutes(router, state);
  notificationRoutes(router, ctx);
  router.use('/xrpc/:nsid', () => {
    throw new XrpcError(501, 'MethodNotImplemented', 'Method Not Implemented');
  });
  router.use(xrpcErrorHandler(logger));
  return router;
}

export type Pds = ReturnType<typeof contextOf>;

/** Who is who on the emulated PDS, and the checks every route shares. */
function contextOf(state: SandboxState) {
  const store = state.bluesky;
  const userByDid = (did: string) => state.users.list('bluesky').find((u) => store.didOf(u) === did);
  /** A handle, a DID, or (a sandbox convenience, as an email would be on a PDS) the sandbox handle the user was made with. */
  const userByIdentifier = (id: string) =>
    id.startsWith('did:')
      ? userByDid(id)
      : state.users.list('bluesky').find((u) => store.handleOf(u) === id.toLowerCase() || u.handle === id);
  return {
    state,
    store,
    userByDid,
    userByIdentifier,
    sessionBody: (user: SandboxUser) => ({
      did: store.didOf(user),
      handle: store.handleOf(user),
      ...store.issueSession(store.didOf(user), state.now()),
      active: true,
    }),
    /** The account an access JWT (app-password session) or a DPoP-bound OAuth token belongs to: https://atproto.com/specs/xrpc#authentication */
    authed: (req: Request, res: Response): SandboxUser => {
      const dpopToken = /^DPoP (\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
      if (dpopToken) {
        const user = userByDid(dpopAuthedDid(state, req, res, dpopToken));
        if (!user || user.revoked) throw new XrpcError(401, 'InvalidToken', 'Token has been revoked');
        res.locals.user = user;
        return user;
      }
      const token = bearerOf(req);
      // A DPoP-bound token sent as Bearer fails the PDS's session JWT check: 400, as the reference PDS answers.
      if (oauthAccessClaims(state, token)) throw new XrpcError(400, 'InvalidToken', 'Token could not be verified');
      const claims = store.verify(token, 'at+jwt');
      if (!claims)
        throw new XrpcError(
          401,
          'InvalidToken',
          store.verify(token, 'refresh+jwt') ? 'Bad token scope' : 'Token could not be verified',
        );
      if (claims.exp * 1000 <= state.now()) throw new XrpcError(400, 'ExpiredToken', 'Token has expired');
      const user = userByDid(claims.sub);
      if (!user || user.revoked) throw new XrpcError(401, 'InvalidToken', 'Token has been revoked');
      res.locals.user = user;
      return user;
    },
    read: (res: Response) => passXrpcFault(state, 'read', res),
    repoDid: (repo: string | undefined): string => {
      const user = repo ? userByIdentifier(repo) : undefined;
      if (!user) throw new XrpcError(400, 'InvalidRequest', `Could not find repo: ${repo ?? ''}`);
      return store.didOf(user);
    },
  };
}

function bearerOf(req: Request): string {
  const token = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
  if (!token) throw new XrpcError(401, 'AuthenticationRequired', 'Authentication Required');
  return token;
}

function sessionRoutes(
  router: Router,
  { state, store, read, authed, sessionBody, userByDid, userByIdentifier }: Pds,
): void {
  // https://docs.bsky.app/docs/api/com-atproto-server-create-session
  router.post('/xrpc/com.atproto.server.createSession', (req, res) => {
    if (!read(res)) return;
    const { identifier, password } = (req.body ?? {}) as { identifier?: unknown; password?: unknown };
    if (typeof identifier !== 'string')
      throw new XrpcError(400, 'InvalidRequest', 'Input must have the property "identifier"');
    if (typeof password !== 'string')
      throw new XrpcError(400, 'InvalidRequest', 'Input must have the property "password"');
    const user = userByIdentifier(identifier);
    if (!user || user.revoked || user.accessToken !== password)
      throw new XrpcError(401, 'AuthenticationRequired', 'Invalid identifier or password');
    sendXrpc(state, res, sessionBody(user));
  });

  // https://docs.bsky.app/docs/api/com-atproto-server-refresh-session: the refresh JWT is the bearer; it is replaced, the old one lasts a grace period.
  router.post('/xrpc/com.atproto.server.refreshSession', (req, res) => {
    if (!read(res)) return;
    const token = bearerOf(req);
    const claims = store.verify(token, 'refresh+jwt');
    if (!claims)
      throw new XrpcError(
        400,
        'InvalidToken',
        store.verify(token, 'at+jwt') ? 'Invalid token type' : 'Token could not be verified',
      );
    if (claims.exp * 1000 <= state.now()) throw new XrpcError(400, 'ExpiredToken', 'Token has expired');
    const user = userByDid(claims.sub);
    if (!user || user.revoked || !store.refreshUsable(claims.jti, state.now()))
      throw new XrpcError(401, 'ExpiredToken', 'Token has been revoked');
    store.retireRefresh(claims.jti, state.now());
    sendXrpc(state, res, sessionBody(user));
  });

  // https://docs.bsky.app/docs/api/com-atproto-server-get-session: the account behind a session JWT or an OAuth token.
  router.get('/xrpc/com.atproto.server.getSession', (req, res) => {
    const user = authed(req, res);
    if (!read(res)) return;
    sendXrpc(state, res, { did: store.didOf(user), handle: store.handleOf(user), active: true });
  });

  // https://docs.bsky.app/docs/api/com-atproto-identity-resolve-handle
  router.get('/xrpc/com.atproto.identity.resolveHandle', (req, res) => {
    if (!read(res)) return;
    const handle = typeof req.query.handle === 'string' ? req.query.handle : '';
    if (!handle) throw new XrpcError(400, 'InvalidRequest', 'Params must have the property "handle"');
    const user = state.users.list('bluesky').find((u) => store.handleOf(u) === handle.toLowerCase());
    if (!user) throw new XrpcError(400, 'InvalidRequest', 'Unable to resolve handle');
    sendXrpc(state, res, { did: store.didOf(user) });
  });
}

function blobRoutes(router: Router, { state, store, authed }: Pds): void {
  // https://docs.bsky.app/docs/api/com-atproto-repo-upload-blob: the bytes are the body; the type is read from them, else from content-type.
  router.post('/xrpc/com.atproto.repo.uploadBlob', (req, res) => {
    const user = authed(req, res);
    if (!passXrpcFault(state, 'upload', res)) return;
    const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const received = res.locals.received as ReceivedRequest | undefined;
    if (received) received.bodyBytes = bytes.length;
    if (!bytes.length) throw new XrpcError(400, 'InvalidRequest', 'Request body is empty');
    const mimeType = sniff(bytes) ?? (req.get('content-type') ?? 'application/octet-stream').split(';')[0].trim();
    const cid = cidOf(bytes, 0x55);
    const did = store.didOf(user);
    store.blobs.set(`${did} ${cid}`, { cid, did, mimeType, size: bytes.length });
    sendXrpc(state, res, { blob: { $type: 'blob', ref: { $link: cid }, mimeType, size: bytes.length } });
  });
}

function recordRoutes(router: Router, pds: Pds): void {
  const { state, store, read, repoDid } = pds;
  // https://docs.bsky.app/docs/api/com-atproto-repo-create-record
  router.post('/xrpc/com.atproto.repo.createRecord', (req, res) => createRecord(pds, req, res));

  // https://docs.bsky.app/docs/api/com-atproto-repo-get-record (public: no session needed)
  router.get('/xrpc/com.atproto.repo.getRecord', (req, res) => {
    if (!read(res)) return;
    const q = req.query as Record<string, string | undefined>;
    const did = repoDid(q.repo);
    const uri = `at://${did}/${q.collection ?? ''}/${q.rkey ?? ''}`;
    const found = store.records.get(uri);
    if (!found || (q.cid && q.cid !== found.cid))
      throw new XrpcError(400, 'RecordNotFound', `Could not locate record: ${uri}`);
    sendXrpc(state, res, { uri: found.uri, cid: found.cid, value: found.value });
  });

  // https://docs.bsky.app/docs/api/com-atproto-repo-list-records: newest key first unless reverse=true, at most 100 a page.
  router.get('/xrpc/com.atproto.repo.listRecords', (req, res) => {
    if (!read(res)) return;
    const q = req.query as Record<string, string | undefined>;
    const did = repoDid(q.repo);
    const limit = q.limit === undefined ? 50 : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new XrpcError(400, 'InvalidRequest', 'limit must be an integer from 1 to 100');
    const reverse = q.reverse === 'true';
    let records = store.recordsOf(did, q.collection ?? '').sort((a, b) => (a.rkey < b.rkey ? 1 : -1));
    if (reverse) records.reverse();
    if (q.cursor) records = records.filter((r) => (reverse ? r.rkey > q.cursor! : r.rkey < q.cursor!));
    const page = records.slice(0, limit);
    sendXrpc(state, res, {
      records: page.map((r) => ({ uri: r.uri, cid: r.cid, value: r.value })),
      ...(records.length > limit && { cursor: page[page.length - 1].rkey }),
    });
  });
}

interface CreateRecordBody {
  repo?: unknown;
  collection?: unknown;
  rkey?: unknown;
  record?: unknown;
  validate?: unknown;
}

/** createRecord for app.bsky.feed.post: the checks the reference PDS makes, in its order, then the record stored and listed as published. */
function createRecord(pds: Pds, req: Request, res: Response): void {
  const { state, store, authed, userByIdentifier } = pds;
  const user = authed(req, res);
  const body = (req.body ?? {}) as CreateRecordBody;
  for (const key of ['repo', 'collection', 'record'] as const)
    if (body[key] === undefined) throw new XrpcError(400, 'InvalidRequest', `Input must have the property "${key}"`);
  const did = store.didOf(user);
  const target = typeof body.repo === 'string' ? userByIdentifier(body.repo) : undefined;
  if (!target) throw new XrpcError(400, 'InvalidRequest', `Could not find repo: ${String(body.repo)}`);
  if (store.didOf(target) !== did) throw new XrpcError(401, 'AuthenticationRequired', 'Authentication Required');
  const record = body.record as Record<string, unknown>;
  const isReply = typeof record === 'object' && record !== null && record.reply !== undefined;
  if (!passXrpcFault(state, isReply ? 'comment' : 'publish', res)) return;

  const rkey = checkedKey(body, record, state.now());
  const checked = checkedRecord(pds, did, record);
  const uri = `at://${did}/${POST}/${rkey}`;
  // The reference PDS answers a key already taken with a bare 500: never a second record.
  if (store.records.has(uri)) throw new XrpcError(500, 'InternalServerError', 'Internal Server Error');

  const cid = cidOf(Buffer.from(JSON.stringify(record)), 0x71);
  const now = state.now();
  store.records.set(uri, { uri, cid, rkey, collection: POST, value: record, createdAt: now });
  listPublished(state, { user, handle: store.handleOf(user), did, uri, cid, rkey, record, checked, isReply, now });
  sendXrpc(state, res, {
    uri,
    cid,
    commit: { cid: cidOf(Buffer.from(`${uri} ${now}`), 0x71), rev: newTid(now) },
    validationStatus: 'valid',
  });
}

function checkedKey(body: CreateRecordBody, record: Record<string, unknown> | undefined, now: number): string {
  if (body.collection !== POST)
    throw new XrpcError(
      400,
      'InvalidRequest',
      `Invalid $type: expected ${String(body.collection)}, got ${String(record?.$type)}`,
    );
  if (record?.$type !== POST)
    throw new XrpcError(400, 'InvalidRequest', `Invalid $type: expected ${POST}, got ${String(record?.$type)}`);
  const rkey =
    body.rkey === undefined ? newTid(now) : typeof body.rkey === 'string' ? body.rkey : JSON.stringify(body.rkey);
  if (!TID.test(rkey))
    throw new XrpcError(400, 'InvalidRequest', `Invalid record key for ${POST}: Record key must be a TID: ${rkey}`);
  return rkey;
}

/** The record against the lexicon, and every blob it names against what the account uploaded. */
function checkedRecord(
  { store }: Pds,
  did: string,
  record: Record<string, unknown>,
): ReturnType<typeof validatePostRecord> {
  let checked: ReturnType<typeof validatePostRecord>;
  try {
    checked = validatePostRecord(record);
  } catch (err) {
    if (err instanceof InvalidRecord)
      throw new XrpcError(400, 'InvalidRequest', `Invalid ${POST} record: ${err.message}`);
    throw err;
  }
  for (const use of checked.blobs) {
    const held = store.blobs.get(`${did} ${use.cid}`);
    if (!held) throw new XrpcError(400, 'BlobNotFound', `Could not find blob: ${use.cid}`);
    if (held.mimeType !== use.mimeType)
      throw new XrpcError(
        400,
        'InvalidMimeType',
        `Referenced Mimetype does not match stored blob. Expected: ${held.mimeType}, Got: ${use.mimeType}`,
      );
    if (held.size !== use.size)
      throw new XrpcError(
        400,
        'InvalidSize',
        `Referenced Size does not match stored blob. Expected: ${held.size}, Got: ${use.size}`,
      );
  }
  return checked;
}

interface StoredPost {
  user: SandboxUser;
  handle: string;
  did: string;
  uri: string;
  cid: string;
  rkey: string;
  record: Record<string, unknown>;
  checked: ReturnType<typeof validatePostRecord>;
  isReply: boolean;
  now: number;
}

function listPublished(state: SandboxState, p: StoredPost): void {
  const { record, checked } = p;
  const images = checked.embed === 'images' ? ((record.embed as { images: { alt: string }[] }).images ?? []) : [];
  state.published.record({
    platform: 'bluesky',
    id: p.uri,
    userId: p.user.userId,
    handle: p.handle,
    text: String(record.text),
    mediaUrls: checked.blobs.map((b) => `at-blob://${p.did}/${b.cid}`),
    mediaType: checked.embed ?? 'text',
    containerId: null,
    permalink: `https://bsky.app/profile/${p.handle}/post/${p.rkey}`,
    createdAt: new Date(p.now).toISOString(),
    bytes: checked.blobs.reduce((n, b) => n + b.size, 0),
    details: {
      rkey: p.rkey,
      cid: p.cid,
      did: p.did,
      facets: record.facets ?? [],
      langs: record.langs ?? [],
      alts: images.map((i) => i.alt),
      ...(p.isReply && { reply: record.reply }),
      ...(record.embed !== undefined && { embed: record.embed }),
    },
  });
}

/** The type the bytes declare by their signature, as the PDS sniffs uploads: JPEG, PNG, WebP, GIF, MP4. */
function sniff(b: Buffer): string | undefined {
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  if (b.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (b.subarray(4, 8).toString('latin1') === 'ftyp') return 'video/mp4';
  return undefined;
}

/** A TID for the instant (https://atproto.com/specs/tid), for keys the caller left to the PDS. */
function newTid(nowMs: number): string {
  let n = (BigInt(nowMs) * 1000n + BigInt(Math.floor(Math.random() * 1000))) << 10n;
  n |= BigInt(Math.floor(Math.random() * 1024));
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = TID_CHARS[Number(n & 31n)] + out;
    n >>= 5n;
  }
  return out;
}
