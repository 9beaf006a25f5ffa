import express, { Router, type Request, type Response } from 'express';
import { pickedUsers } from '../oauth/authorize';
import { consentPage, errorPage } from '../oauth/consent-page';
import type { SandboxState } from '../state';
import { resolveClient, type AtprotoClient } from './oauth-clients';
import { originOf } from './oauth-http';
import { AtprotoOAuthError, LIFETIMES, newCode, REQUEST_URI_PREFIX, type PushedRequest } from './oauth-store';

const REQUEST_ID = /^req-[0-9a-f]{32}$/;

function showError(res: Response, message: string): void {
  res.status(400).type('html').set('cache-control', 'no-store').send(errorPage('bluesky', message));
}

/**
 * Back to the client's redirect URI (https://atproto.com/specs/oauth#summary-of-authorization-flow):
 * `state` and `iss` (RFC 9207) with the code or the error, in the query or the fragment as asked.
 * The pushed request is used up either way.
 */
function redirectBack(
  state: SandboxState,
  req: Request,
  res: Response,
  request: PushedRequest,
  answer: Record<string, string>,
): void {
  if (!answer.code) state.blueskyOAuth.requests.delete(request.id);
  const back = new URL(request.params.redirect_uri);
  const params = new URLSearchParams({ ...answer, state: request.params.state, iss: originOf(req) });
  if (request.params.response_mode === 'fragment') back.hash = params.toString();
  else for (const [k, v] of params) back.searchParams.set(k, v);
  res.redirect(303, back.toString());
}

/**
 * The pushed request the browser arrives with (only `client_id` and `request_uri`: this server
 * requires PAR). Problems with the client or the request_uri are shown, never redirected; a request
 * already used, expired or of another client goes back as `access_denied`, as the reference server answers.
 */
async function pendingRequest(
  state: SandboxState,
  req: Request,
  res: Response,
  fields: Record<string, unknown>,
): Promise<{ request: PushedRequest; client: AtprotoClient } | undefined> {
  const { client_id: clientId, request_uri: requestUri } = fields;
  if (typeof clientId !== 'string' || !clientId) return void showError(res, 'Missing "client_id" query parameter');
  let client: AtprotoClient;
  try {
    client = await resolveClient(clientId, state.blueskyOAuth.rules);
  } catch (err) {
    if (err instanceof AtprotoOAuthError) return void showError(res, err.description);
    throw err;
  }
  if (typeof requestUri !== 'string' || !requestUri)
    return void showError(res, 'This server requires pushed authorization requests: "request_uri" is required');
  const id = requestUri.startsWith(REQUEST_URI_PREFIX)
    ? decodeURIComponent(requestUri.slice(REQUEST_URI_PREFIX.length))
    : '';
  if (!REQUEST_ID.test(id)) return void showError(res, 'Invalid "request_uri" query parameter');
  const request = state.blueskyOAuth.requests.get(id);
  if (!request) return void showError(res, 'Unknown request_uri');
  const refusal =
    request.did || request.code
      ? 'This request was already authorized'
      : request.expiresAt < state.now()
        ? 'This request has expired'
        : request.clientId !== client.id
          ? 'This request was initiated for another client'
          : undefined;
  if (refusal)
    return void redirectBack(state, req, res, request, { error: 'access_denied', error_description: refusal });
  return { request, client };
}

/** The sandbox users the person may continue as: only the hinted account when `login_hint` names one. */
function accountsFor(state: SandboxState, hint: string | undefined) {
  const users = state.users.list('bluesky');
  const hinted = hint ? users.filter((u) => state.bluesky.didOf(u) === hint || state.bluesky.handleOf(u) === hint) : [];
  return hinted.length ? hinted : users;
}

/**
 * GET/POST /bluesky/oauth/authorize: the sandbox's consent page for a pushed request, then back to
 * the client with `code`, `state` and `iss` (or `error=access_denied`).
 */
export function blueskyAuthorizeRouter(state: SandboxState): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const found = await pendingRequest(state, req, res, req.query);
    if (!found) return;
    const { request, client } = found;
    request.expiresAt = state.now() + LIFETIMES.inactivityMs;
    res
      .type('html')
      .set('cache-control', 'no-store')
      .send(
        consentPage({
          platform: 'bluesky',
          clientId: client.id,
          scopes: request.params.scope.split(' '),
          params: { client_id: client.id, request_uri: `${REQUEST_URI_PREFIX}${request.id}` },
          users: accountsFor(state, request.params.login_hint),
          multiple: false,
          suggestedHandle: `bluesky_${state.ids
            .shortcode()
            .replace(/[^A-Za-z0-9]/g, '')
            .slice(0, 6)
            .toLowerCase()}`,
        }),
      );
  });

  router.post('/', express.urlencoded({ extended: false, limit: '16kb' }), async (req, res) => {
    const body = (req.body ?? {}) as Record<string, string | string[]>;
    const found = await pendingRequest(state, req, res, body);
    if (!found) return;
    const { request } = found;
    if (body.decision !== 'approve')
      return redirectBack(state, req, res, request, { error: 'access_denied', error_description: 'Access denied' });
    const users = pickedUsers(state, 'bluesky', false, body);
    if (typeof users === 'string') return showError(res, users);
    request.did = state.bluesky.didOf(users[0]);
    request.code = newCode();
    request.expiresAt = state.now() + LIFETIMES.inactivityMs;
    redirectBack(state, req, res, request, { code: request.code });
  });
  return router;
}
