import { createHash } from 'node:crypto';
import type { Logger } from '@postbus/kit';
import { mastodonTextLength } from '@postbus/platforms';
import express, { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import type { FaultOperation } from '../faults';
import { rawMultipart, readMultipart } from '../multipart';
import { platformLatency } from '../platform-settings';
import { recordRequests, type ReceivedRequest } from '../requests';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { mentionNotifications, mastodonReplyTarget } from './mentions';
import { statusCounts } from './status-counts';
import { checkThumbnail } from './thumbnail';
import { mastodonAccountOf, type MastodonMedia, type MastodonSandboxLimits, type MastodonStatusRecord } from './store';

/** A Mastodon error answer, `{ error, error_description? }`: https://docs.joinmastodon.org/entities/Error/ */
export class MastodonError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, string> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const CODE_TTL_MS = 10 * 60_000;
const VISIBILITIES = ['public', 'unlisted', 'private', 'direct'];
/** The scopes an app may register (https://docs.joinmastodon.org/api/oauth-scopes/), those Postbus uses and their parents. */
const KNOWN_SCOPES = /^(read|write|follow|push|profile)(:[a-z_]+)?$/;

/**
 * Mastodon instances under `/mastodon/{instance}/…` (https://docs.joinmastodon.org/methods/): app
 * registration, OAuth (authorize with a consent page listing the instance's sandbox users, token
 * with PKCE), verify_credentials, the instance's configuration, media (v2, processed
 * asynchronously) and statuses with the checks a default instance makes (500 characters counted
 * the Mastodon way, 4 attachments, poll rules) and Idempotency-Key dedupe. A sandbox user lives on
 * the instance after `@` in its handle (`studio@mastodon.example`); its control-API token works as
 * an access token with every scope. Fault operations: apps `create`, media upload `upload`, media
 * status `status`, statuses `publish`, every other call `read`.
 */
export function mastodonRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  router.post(
    '/:instance/api/v2/media',
    rawMultipart(Math.max(state.mastodon.limits.videoSizeLimit, state.mastodon.limits.imageSizeLimit) + 1024 * 1024),
  );
  router.use(express.urlencoded({ extended: true, limit: '1mb' }), express.json({ limit: '1mb' }));
  router.use(
    recordRequests(state.requests, 'mastodon', () => state.now()),
    platformLatency(() => state.settingsFor('mastodon').latencyMs),
  );
  router.use((req, res, next) => {
    const key = req.get('idempotency-key');
    const received = res.locals.received as ReceivedRequest | undefined;
    if (key && received) received.headers['idempotency-key'] = key;
    next();
  });
  appRoutes(router, state);
  oauthRoutes(router, state);
  apiRoutes(router, state);
  router.use((req) => {
    throw new MastodonError(404, `Record not found (${req.method} ${req.path})`);
  });
  router.use(errorHandler(logger));
  return router;
}

type Req = Request<Record<string, string>>;

function instanceOf(req: Req): string {
  return String(req.params.instance).toLowerCase();
}

function usersOn(state: SandboxState, instance: string): SandboxUser[] {
  return state.users.list('mastodon').filter((u) => mastodonAccountOf(u.handle).instance === instance);
}

/** Sends the answer, unless a timeout fault asked for it to be lost (the work is done, the caller never hears). */
function send(state: SandboxState, res: Response, status: number, body: unknown): void {
  if (res.locals.swallowAnswer) {
    state.held.hold(res);
    return;
  }
  res.status(status).json(body);
}

/**
 * Consumes a queued Mastodon fault. `error` answers its status (422 by default) with `message`;
 * `throttle` answers 429 with the X-RateLimit-* headers Mastodon sends (https://docs.joinmastodon.org/api/rate-limits/);
 * `timeout` holds the request, or lets it run and drops the answer (applied, the default).
 */
function passFault(state: SandboxState, operation: Exclude<FaultOperation, 'any'>, res: Response): boolean {
  const fault = state.faults.take('mastodon', operation);
  if (!fault) return true;
  if (fault.mode === 'timeout') {
    if (fault.applied) {
      res.locals.swallowAnswer = true;
      return true;
    }
    state.held.hold(res);
    return false;
  }
  if (fault.mode === 'throttle') {
    const reset = new Date(state.now() + 5 * 60_000).toISOString();
    throw new MastodonError(
      fault.status ?? 429,
      fault.message ?? 'Too many requests',
      {},
      { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
    );
  }
  const status = fault.status ?? 422;
  throw new MastodonError(
    status,
    fault.message ??
      (status >= 500 ? "We're sorry, but something went wrong on our end." : 'Validation failed: injected failure'),
  );
}

function appRoutes(router: Router, state: SandboxState): void {
  // https://docs.joinmastodon.org/methods/apps/#create
  router.post('/:instance/api/v1/apps', (req: Req, res) => {
    if (!passFault(state, 'create', res)) return;
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (typeof b.client_name !== 'string' || !b.client_name.trim())
      throw new MastodonError(422, "Validation failed: Application name can't be blank");
    const rawUris = Array.isArray(b.redirect_uris)
      ? b.redirect_uris.map(String)
      : typeof b.redirect_uris === 'string'
        ? b.redirect_uris.split(/\s+/).filter(Boolean)
        : [];
    if (!rawUris.length) throw new MastodonError(422, "Validation failed: Redirect URI can't be blank");
    for (const uri of rawUris)
      if (uri !== 'urn:ietf:wg:oauth:2.0:oob' && !/^https?:\/\/[^\s#]+$/.test(uri))
        throw new MastodonError(422, 'Validation failed: Redirect URI must be an absolute URI.');
    const scopes = typeof b.scopes === 'string' && b.scopes.trim() ? b.scopes.trim().split(/\s+/) : ['read'];
    const unknown = scopes.find((s) => !KNOWN_SCOPES.test(s));
    if (unknown) throw new MastodonError(422, `Validation failed: Scopes are invalid (${unknown})`);
    const instance = instanceOf(req);
    const id = state.mastodon.nextId(state.now());
    const app = {
      instance,
      clientId: token('cid'),
      clientSecret: token('csec'),
      name: b.client_name,
      redirectUris: rawUris,
      scopes,
    };
    state.mastodon.apps.set(app.clientId, app);
    send(state, res, 200, {
      id,
      name: app.name,
      website: typeof b.website === 'string' ? b.website : null,
      scopes,
      redirect_uri: rawUris.join('\n'),
      redirect_uris: rawUris,
      client_id: app.clientId,
      client_secret: app.clientSecret,
      vapid_key: 'sandbox',
    });
  });
}

function token(prefix: string): string {
  return `${prefix}_${createHash('sha256').update(`${Math.random()} ${process.hrtime.bigint()}`).digest('base64url').slice(0, 43)}`;
}

interface AuthorizeParams {
  client_id?: string;
  redirect_uri?: string;
  response_type?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

function oauthRoutes(router: Router, state: SandboxState): void {
  // https://docs.joinmastodon.org/methods/oauth/#authorize: a consent page; the sandbox lists the instance's users to sign in as.
  router.get('/:instance/oauth/authorize', (req: Req, res) => consentPage(state, req, res));

  router.post('/:instance/oauth/authorize', (req: Req, res) => approve(state, req, res));

  // https://docs.joinmastodon.org/methods/oauth/#token
  router.post('/:instance/oauth/token', (req: Req, res) => exchangeCode(state, req, res));
}

/** The account behind a bearer token on this instance, with the scope the call needs. */
function authed(state: SandboxState, req: Req, res: Response, scope?: string): SandboxUser {
  const instance = instanceOf(req);
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
  const invalid = new MastodonError(401, 'The access token is invalid');
  if (!bearer) throw invalid;
  const issued = state.mastodon.tokens.get(bearer);
  const user = issued ? state.users.get(issued.userId) : state.users.byAccessToken('mastodon', bearer);
  if (
    !user ||
    user.platform !== 'mastodon' ||
    user.revoked ||
    mastodonAccountOf(user.handle).instance !== instance ||
    (issued && issued.instance !== instance)
  )
    throw invalid;
  if (scope && issued && !issued.scopes.some((s) => s === scope || s === scope.split(':')[0]))
    throw new MastodonError(403, 'This action is outside the authorized scopes');
  res.locals.user = user;
  return user;
}

function accountBody(user: SandboxUser, instance: string) {
  const { username } = mastodonAccountOf(user.handle);
  return {
    id: user.userId,
    username,
    acct: username,
    display_name: username,
    url: `https://${instance}/@${username}`,
    avatar: `https://${instance}/avatars/original/missing.png`,
    created_at: user.createdAt,
  };
}

function apiRoutes(router: Router, state: SandboxState): void {
  const store = state.mastodon;
  // https://docs.joinmastodon.org/methods/accounts/#verify_credentials
  router.get('/:instance/api/v1/accounts/verify_credentials', (req: Req, res) => {
    const user = authed(state, req, res, 'read:accounts');
    if (!passFault(state, 'read', res)) return;
    send(state, res, 200, accountBody(user, instanceOf(req)));
  });

  // https://docs.joinmastodon.org/methods/instance/#v2
  router.get('/:instance/api/v2/instance', (req: Req, res) => instanceConfig(state, req, res));

  // https://docs.joinmastodon.org/methods/media/#v2: 202 with url null while processing, 200 when the file is ready at once.
  router.post('/:instance/api/v2/media', (req: Req, res) => uploadMedia(state, req, res));

  // https://docs.joinmastodon.org/methods/media/#get: 206 while processing, 200 once ready.
  router.get('/:instance/api/v1/media/:id', (req: Req, res) => mediaStatus(state, req, res));

  // https://docs.joinmastodon.org/methods/statuses/#create
  router.post('/:instance/api/v1/statuses', (req: Req, res) => createStatus(state, req, res));

  // https://docs.joinmastodon.org/methods/statuses/#get: public without a token; a token sent must be valid, with read:statuses.
  router.get('/:instance/api/v1/statuses/:id', (req: Req, res) => {
    if (req.get('authorization')) authed(state, req, res, 'read:statuses');
    if (!passFault(state, 'read', res)) return;
    const s = store.statuses.get(req.params.id);
    if (!s || s.instance !== instanceOf(req)) throw new MastodonError(404, 'Record not found');
    send(state, res, 200, statusBody(state, s));
  });

  // https://docs.joinmastodon.org/methods/statuses/#source
  router.get('/:instance/api/v1/statuses/:id/source', (req: Req, res) => {
    const user = authed(state, req, res);
    if (!passFault(state, 'read', res)) return;
    const s = store.statuses.get(req.params.id);
    if (!s || s.instance !== instanceOf(req) || s.userId !== user.userId)
      throw new MastodonError(404, 'Record not found');
    send(state, res, 200, { id: s.id, text: s.text, spoiler_text: s.spoilerText });
  });

  // https://docs.joinmastodon.org/methods/accounts/#statuses: newest first, at most 40.
  router.get('/:instance/api/v1/accounts/:id/statuses', (req: Req, res) => accountStatuses(state, req, res));
  // https://docs.joinmastodon.org/methods/notifications/#get
  router.get('/:instance/api/v1/notifications', (req: Req, res) => {
    const user = authed(state, req, res, 'read:notifications');
    if (!passFault(state, 'read', res)) return;
    send(state, res, 200, mentionNotifications(state, user, req.query));
  });
}

function mediaBody(m: MastodonMedia, now: number) {
  const ready = m.readyAt <= now;
  return {
    id: m.id,
    type: m.type,
    url: ready ? `https://${m.instance}/system/media_attachments/files/${m.id}/original` : null,
    preview_url: m.thumbnail ? `https://${m.instance}/system/media_attachments/thumbnails/${m.id}/original` : null,
    remote_url: null,
    description: m.description,
    blurhash: null,
    meta: {},
  };
}

function statusBody(state: SandboxState, s: MastodonStatusRecord) {
  const now = state.now();
  const user = state.users.get(s.userId);
  return {
    id: s.id,
    uri: `https://${s.instance}/users/${s.username}/statuses/${s.id}`,
    url: `https://${s.instance}/@${s.username}/${s.id}`,
    created_at: s.createdAt,
    content: `<p>${esc(s.text)}</p>`,
    spoiler_text: s.spoilerText,
    visibility: s.visibility,
    language: s.language,
    sensitive: s.sensitive,
    account: user ? accountBody(user, s.instance) : null,
    media_attachments: s.mediaIds
      .map((id) => state.mastodon.media.get(id))
      .filter((m): m is MastodonMedia => !!m)
      .map((m) => mediaBody(m, now)),
    poll: s.poll && {
      id: s.id,
      expires_at: new Date(Date.parse(s.createdAt) + s.poll.expiresIn * 1000).toISOString(),
      multiple: s.poll.multiple,
      options: s.poll.options.map((title) => ({ title, votes_count: 0 })),
    },
    ...statusCounts(state, s.id),
  };
}

/** The checks Mastodon's PostStatusService and its validators make, in their order; a repeated Idempotency-Key answers the first status. */
function createStatus(state: SandboxState, req: Req, res: Response): void {
  const store = state.mastodon;
  const user = authed(state, req, res, 'write:statuses');
  const instance = instanceOf(req);
  const key = req.get('idempotency-key');
  const now = state.now();
  const keyed = key ? `${instance} ${user.userId} ${key}` : undefined;
  const earlier = keyed ? store.idempotency.get(keyed) : undefined;
  if (earlier && earlier.at + store.limits.idempotencyTtlMs > now) {
    const first = store.statuses.get(earlier.statusId);
    if (first) return send(state, res, 200, statusBody(state, first));
  }
  if (!passFault(state, 'publish', res)) return;
  const b = (req.body ?? {}) as Record<string, unknown>;
  const text = typeof b.status === 'string' ? b.status : '';
  const spoilerText = typeof b.spoiler_text === 'string' ? b.spoiler_text : '';
  const mediaIds = Array.isArray(b.media_ids)
    ? b.media_ids.map(String)
    : typeof b.media_ids === 'string'
      ? [b.media_ids]
      : [];
  const poll = b.poll && typeof b.poll === 'object' ? (b.poll as Record<string, unknown>) : undefined;
  const l = store.limits;
  if (!text.trim() && !mediaIds.length && !poll) throw new MastodonError(422, "Validation failed: Text can't be blank");
  if (mediaIds.length && poll) throw new MastodonError(422, 'Cannot attach files to a status with a poll');
  if (mediaIds.length > l.maxMediaAttachments)
    throw new MastodonError(422, `Cannot attach more than ${l.maxMediaAttachments} files`);
  const media = mediaIds.map((id) => store.media.get(id));
  if (media.some((m) => !m || m.userId !== user.userId || m.instance !== instance || m.statusId !== null))
    throw new MastodonError(422, 'Validation failed: Media attachments are invalid');
  if (media.some((m) => m!.readyAt > now))
    throw new MastodonError(422, 'Cannot attach files that have not finished processing. Try again in a moment!');
  const length = mastodonTextLength(text, spoilerText);
  if (length > l.maxCharacters)
    throw new MastodonError(422, `Validation failed: Text character limit of ${l.maxCharacters} exceeded`);
  const visibility = typeof b.visibility === 'string' ? b.visibility : 'public';
  if (!VISIBILITIES.includes(visibility))
    throw new MastodonError(422, `Validation failed: Visibility is not included in the list`);
  const checkedPoll = poll ? checkPoll(poll, l) : null;
  const language = typeof b.language === 'string' && b.language ? b.language : null;
  if (language !== null && !/^[a-z]{2,3}$/i.test(language))
    throw new MastodonError(422, 'Validation failed: Language is not a valid ISO 639 code');
  const replyTo = mastodonReplyTarget(state, b.in_reply_to_id);
  if (replyTo === 'unknown') throw new MastodonError(404, 'Record not found');
  const { username } = mastodonAccountOf(user.handle);
  const status: MastodonStatusRecord = {
    id: store.nextId(now),
    instance,
    userId: user.userId,
    username,
    text,
    spoilerText,
    visibility,
    language,
    sensitive: b.sensitive === true || b.sensitive === 'true',
    mediaIds,
    poll: checkedPoll,
    createdAt: new Date(now).toISOString(),
    ...replyTo,
  };
  store.statuses.set(status.id, status);
  for (const m of media) m!.statusId = status.id;
  if (keyed) store.idempotency.set(keyed, { statusId: status.id, at: now });
  listPublished(state, status, media as MastodonMedia[], key);
  send(state, res, 200, statusBody(state, status));
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    let e: MastodonError;
    if (err instanceof MastodonError) e = err;
    else if ((err as { type?: string })?.type === 'entity.too.large') e = new MastodonError(413, 'File too large');
    else if ((err as { type?: string })?.type === 'entity.parse.failed')
      e = new MastodonError(400, 'Malformed request body');
    else {
      logger.error('unexpected sandbox error', { err: (err as Error)?.stack ?? String(err) });
      e = new MastodonError(500, "We're sorry, but something went wrong on our end.");
    }
    res
      .status(e.status)
      .set(e.headers)
      .json({ error: e.message, ...e.extra });
  };
}

/** What the instance's OAuth server (Doorkeeper) checks on an authorize request: an app of this instance, one of its redirect URIs, `code`, registered scopes, S256. */
function checkAuthorize(state: SandboxState, instance: string, p: AuthorizeParams) {
  const app = p.client_id ? state.mastodon.apps.get(p.client_id) : undefined;
  if (!app || app.instance !== instance)
    throw new MastodonError(401, 'invalid_client', {
      error_description:
        'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
    });
  if (!p.redirect_uri || !app.redirectUris.includes(p.redirect_uri))
    throw new MastodonError(400, 'invalid_redirect_uri', {
      error_description: 'The redirect uri included is not valid.',
    });
  if (p.response_type !== 'code')
    throw new MastodonError(400, 'unsupported_response_type', {
      error_description: 'The authorization server does not support this response type.',
    });
  const scopes = (p.scope ?? 'read').split(/\s+/).filter(Boolean);
  if (scopes.some((s) => !app.scopes.includes(s)))
    throw new MastodonError(400, 'invalid_scope', {
      error_description: 'The requested scope is invalid, unknown, or malformed.',
    });
  if (p.code_challenge && p.code_challenge_method !== 'S256')
    throw new MastodonError(400, 'invalid_request', { error_description: 'Code challenge method must be S256.' });
  return { app, scopes };
}

function consentPage(state: SandboxState, req: Req, res: Response): void {
  const instance = instanceOf(req);
  const p = req.query as AuthorizeParams;
  const { app, scopes } = checkAuthorize(state, instance, p);
  const hidden = Object.entries(p)
    .filter(([, v]) => typeof v === 'string')
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(String(v))}">`)
    .join('');
  const users = usersOn(state, instance);
  const buttons = users
    .map(
      (u) =>
        `<button type="submit" name="user_id" value="${esc(u.userId)}">Authorize as @${esc(mastodonAccountOf(u.handle).username)}</button>`,
    )
    .join('<br>');
  res
    .status(200)
    .type('html')
    .send(
      `<!doctype html><html><head><title>Authorization required - ${esc(instance)}</title></head><body><h1>Authorize ${esc(app.name)}</h1><p>${esc(app.name)} asks for: ${esc(scopes.join(', '))} on ${esc(instance)}.</p><form method="post" action="authorize">${hidden}${buttons || '<p>No accounts on this instance.</p>'}<br><button type="submit" name="decision" value="deny">Deny</button></form></body></html>`,
    );
}

function approve(state: SandboxState, req: Req, res: Response): void {
  const instance = instanceOf(req);
  const p = (req.body ?? {}) as AuthorizeParams & { user_id?: string; decision?: string };
  const { app, scopes } = checkAuthorize(state, instance, p);
  const target = new URL(p.redirect_uri!);
  if (p.state) target.searchParams.set('state', p.state);
  if (p.decision === 'deny') {
    target.searchParams.set('error', 'access_denied');
    target.searchParams.set('error_description', 'The resource owner or authorization server denied the request.');
    return res.redirect(302, target.toString());
  }
  const user = usersOn(state, instance).find((u) => u.userId === p.user_id);
  if (!user || user.revoked) throw new MastodonError(422, 'That account cannot sign in.');
  const code = token('code');
  state.mastodon.codes.set(code, {
    instance,
    clientId: app.clientId,
    redirectUri: p.redirect_uri!,
    userId: user.userId,
    scopes,
    codeChallenge: p.code_challenge,
    expiresAt: state.now() + CODE_TTL_MS,
  });
  target.searchParams.set('code', code);
  res.redirect(302, target.toString());
}

function exchangeCode(state: SandboxState, req: Req, res: Response): void {
  if (!passFault(state, 'read', res)) return;
  const instance = instanceOf(req);
  const b = (req.body ?? {}) as Record<string, string | undefined>;
  const app = b.client_id ? state.mastodon.apps.get(b.client_id) : undefined;
  if (!app || app.instance !== instance || app.clientSecret !== b.client_secret)
    throw new MastodonError(401, 'invalid_client', {
      error_description:
        'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
    });
  if (b.grant_type !== 'authorization_code')
    throw new MastodonError(400, 'unsupported_grant_type', {
      error_description: 'The authorization grant type is not supported by the authorization server.',
    });
  const code = b.code ? state.mastodon.codes.get(b.code) : undefined;
  const invalidGrant = new MastodonError(400, 'invalid_grant', {
    error_description:
      'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
  });
  if (!code || code.clientId !== app.clientId || code.expiresAt <= state.now() || code.redirectUri !== b.redirect_uri)
    throw invalidGrant;
  if (code.codeChallenge) {
    const computed = createHash('sha256')
      .update(b.code_verifier ?? '')
      .digest('base64url');
    if (!b.code_verifier || computed !== code.codeChallenge) throw invalidGrant;
  }
  state.mastodon.codes.delete(b.code!);
  const accessToken = token('mtok');
  state.mastodon.tokens.set(accessToken, { userId: code.userId, instance, scopes: code.scopes });
  send(state, res, 200, {
    access_token: accessToken,
    token_type: 'Bearer',
    scope: code.scopes.join(' '),
    created_at: Math.floor(state.now() / 1000),
  });
}

function instanceConfig(state: SandboxState, req: Req, res: Response): void {
  const store = state.mastodon;
  if (!passFault(state, 'read', res)) return;
  const l = store.limits;
  send(state, res, 200, {
    domain: instanceOf(req),
    title: `Sandbox ${instanceOf(req)}`,
    version: '4.3.0',
    configuration: {
      statuses: {
        max_characters: l.maxCharacters,
        max_media_attachments: l.maxMediaAttachments,
        characters_reserved_per_url: l.charactersReservedPerUrl,
      },
      media_attachments: {
        supported_mime_types: [
          'image/jpeg',
          'image/png',
          'image/gif',
          'image/webp',
          'video/mp4',
          'video/quicktime',
          'video/webm',
        ],
        image_size_limit: l.imageSizeLimit,
        image_matrix_limit: 33_177_600,
        video_size_limit: l.videoSizeLimit,
        video_frame_rate_limit: 120,
        video_matrix_limit: 8_294_400,
      },
      polls: {
        max_options: l.pollMaxOptions,
        max_characters_per_option: l.pollMaxCharactersPerOption,
        min_expiration: l.pollMinExpiration,
        max_expiration: l.pollMaxExpiration,
      },
    },
  });
}

function uploadMedia(state: SandboxState, req: Req, res: Response): void {
  const store = state.mastodon;
  const user = authed(state, req, res, 'write:media');
  if (!passFault(state, 'upload', res)) return;
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const received = res.locals.received as ReceivedRequest | undefined;
  if (received) received.bodyBytes = body.length;
  const parts = readMultipart(
    body,
    req.get('content-type') ?? '',
    () => new MastodonError(422, "Validation failed: File can't be blank"),
  );
  const file = parts.find((p) => p.name === 'file' && p.filename !== undefined);
  if (!file || !file.data.length) throw new MastodonError(422, "Validation failed: File can't be blank");
  const contentType = file.contentType ?? 'application/octet-stream';
  const type: MastodonMedia['type'] = contentType.startsWith('image/')
    ? contentType === 'image/gif'
      ? 'gifv'
      : 'image'
    : contentType.startsWith('video/')
      ? 'video'
      : 'unknown';
  if (type === 'unknown')
    throw new MastodonError(422, `Validation failed: File content type is invalid (${contentType})`);
  const max = type === 'image' ? store.limits.imageSizeLimit : store.limits.videoSizeLimit;
  if (file.data.length > max)
    throw new MastodonError(422, `Validation failed: File file size must be less than ${max} Bytes`);
  const description = parts.find((p) => p.name === 'description')?.data.toString('utf8') ?? null;
  if (description && [...description].length > 1500)
    throw new MastodonError(422, 'Validation failed: Description is too long (maximum is 1500 characters)');
  const thumbnailPart = parts.find((p) => p.name === 'thumbnail' && p.filename !== undefined);
  const thumbnail = thumbnailPart ? checkThumbnail(thumbnailPart.data, store.limits.imageSizeLimit) : undefined;
  if (thumbnail && !thumbnail.ok) throw new MastodonError(422, thumbnail.message);
  const now = state.now();
  const media: MastodonMedia = {
    id: store.nextId(now),
    instance: instanceOf(req),
    userId: user.userId,
    type,
    contentType,
    size: file.data.length,
    description,
    thumbnail: thumbnail?.ok ? { contentType: thumbnail.contentType, size: thumbnail.size } : null,
    // The instance's own processing time when a test set one, else the platform's processingDelayMs (POST /__sandbox/settings).
    readyAt: now + (store.limits.mediaProcessingMs || state.settingsFor('mastodon').processingDelayMs),
    statusId: null,
  };
  store.media.set(media.id, media);
  const ready = media.readyAt <= now;
  send(state, res, ready ? 200 : 202, mediaBody(media, now));
}

function mediaStatus(state: SandboxState, req: Req, res: Response): void {
  const store = state.mastodon;
  const user = authed(state, req, res, 'write:media');
  if (!passFault(state, 'status', res)) return;
  const media = store.media.get(req.params.id);
  if (!media || media.userId !== user.userId || media.instance !== instanceOf(req))
    throw new MastodonError(404, 'Record not found');
  const now = state.now();
  send(state, res, media.readyAt <= now ? 200 : 206, mediaBody(media, now));
}

function accountStatuses(state: SandboxState, req: Req, res: Response): void {
  const store = state.mastodon;
  if (!passFault(state, 'read', res)) return;
  const limit = Math.min(40, Math.max(1, Number(req.query.limit ?? 20) || 20));
  const list = [...store.statuses.values()]
    .filter((s) => s.instance === instanceOf(req) && s.userId === req.params.id)
    .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
  send(
    state,
    res,
    200,
    list.slice(0, limit).map((s) => statusBody(state, s)),
  );
}

/** Mastodon's PollValidator: 2 to max_options options within max_characters_per_option, no repeats, expires_in within the instance's bounds. */
function checkPoll(poll: Record<string, unknown>, l: MastodonSandboxLimits): NonNullable<MastodonStatusRecord['poll']> {
  const options = Array.isArray(poll.options) ? poll.options.map(String) : [];
  const expiresIn = Number(poll.expires_in);
  if (options.length < 2) throw new MastodonError(422, 'Validation failed: Poll must have at least 2 options');
  if (options.length > l.pollMaxOptions)
    throw new MastodonError(422, `Validation failed: Poll cannot have more than ${l.pollMaxOptions} options`);
  if (options.some((o) => [...o].length > l.pollMaxCharactersPerOption))
    throw new MastodonError(
      422,
      `Validation failed: Poll options cannot be longer than ${l.pollMaxCharactersPerOption} characters`,
    );
  if (new Set(options).size !== options.length)
    throw new MastodonError(422, 'Validation failed: Poll options contain duplicate items');
  if (!Number.isFinite(expiresIn) || expiresIn < l.pollMinExpiration)
    throw new MastodonError(422, 'Validation failed: Poll duration too short');
  if (expiresIn > l.pollMaxExpiration) throw new MastodonError(422, 'Validation failed: Poll duration too long');
  return { options, expiresIn, multiple: poll.multiple === true || poll.multiple === 'true' };
}

/** The status as the control API lists it, with its permalink on its instance. */
function listPublished(
  state: SandboxState,
  status: MastodonStatusRecord,
  media: MastodonMedia[],
  key: string | undefined,
): void {
  const { instance, username, text, spoilerText, visibility, language, poll: checkedPoll } = status;
  const now = state.now();
  const permalink = `https://${instance}/@${username}/${status.id}`;
  state.published.record({
    platform: 'mastodon',
    id: status.id,
    userId: status.userId,
    handle: `${username}@${instance}`,
    text,
    mediaUrls: media.map((m) => mediaBody(m, now).url!),
    mediaType: checkedPoll ? 'poll' : media.length ? media[0].type : 'text',
    containerId: null,
    permalink,
    createdAt: status.createdAt,
    bytes: media.reduce((n, m) => n + m.size, 0),
    details: {
      instance,
      spoilerText,
      visibility,
      language,
      sensitive: status.sensitive,
      poll: checkedPoll,
      alts: media.map((m) => m.description),
      ...(media.some((m) => m.thumbnail) && { thumbnails: media.map((m) => m.thumbnail ?? null) }),
      idempotencyKey: key ?? null,
    },
  });
}
