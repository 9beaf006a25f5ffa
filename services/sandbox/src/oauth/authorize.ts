import type { Platform } from '@postbus/contracts';
import { Router, urlencoded, type Request, type Response } from 'express';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { consentPage, errorPage } from './consent-page';
import { issueCode } from './tokens';

export interface AuthorizeSpec {
  platform: Platform;
  /** `client_key` on TikTok, `client_id` elsewhere. */
  clientParam: 'client_id' | 'client_key';
  /** Facebook: the person grants several Pages at once. */
  multiple: boolean;
  /** Extra parameters the platform sends back on a refusal. */
  denial?: Record<string, string>;
}

const HANDLE = /^[A-Za-z0-9._]{1,30}$/;

/** The authorization endpoint: GET shows the consent page, POST (its form) redirects back with a code or an error. */
export function authorizeRouter(state: SandboxState, spec: AuthorizeSpec): Router {
  const router = Router();

  router.get('/', (req, res) => {
    const params = stringParams(req.query);
    const problem = checkRequest(params, spec);
    if (problem) return sendError(res, spec.platform, problem);
    const unapproved = unapprovedScopes(state, spec.platform, params.scope);
    if (unapproved.length) return refuseScopes(res, params, unapproved);
    res
      .type('html')
      .set('cache-control', 'no-store')
      .send(
        consentPage({
          platform: spec.platform,
          clientId: params[spec.clientParam],
          scopes: (params.scope ?? '').split(/[\s,]+/).filter(Boolean),
          params,
          users: state.users.list(spec.platform),
          multiple: spec.multiple,
          suggestedHandle: `${spec.platform}_${state.ids
            .shortcode()
            .replace(/[^A-Za-z0-9]/g, '')
            .slice(0, 6)
            .toLowerCase()}`,
        }),
      );
  });

  router.post('/', urlencoded({ extended: false }), (req: Request, res: Response) => {
    const body = req.body as Record<string, string | string[]>;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(body))
      if (typeof v === 'string' && !['account', 'handle', 'decision'].includes(k)) params[k] = v;
    const problem = checkRequest(params, spec);
    if (problem) return sendError(res, spec.platform, problem);
    const unapproved = unapprovedScopes(state, spec.platform, params.scope);
    if (unapproved.length) return refuseScopes(res, params, unapproved);
    const back = new URL(params.redirect_uri);
    if (body.decision !== 'approve') {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user denied the request.');
      for (const [k, v] of Object.entries(spec.denial ?? {})) back.searchParams.set(k, v);
    } else {
      const users = pickedUsers(state, spec.platform, spec.multiple, body);
      if (typeof users === 'string') return sendError(res, spec.platform, users);
      const code = issueCode(state, {
        platform: spec.platform,
        clientId: params[spec.clientParam],
        redirectUri: params.redirect_uri,
        userIds: users.map((u) => u.userId),
        scopes: (params.scope ?? '').split(/[\s,]+/).filter(Boolean),
        codeChallenge: params.code_challenge,
        codeChallengeMethod: params.code_challenge ? (params.code_challenge_method ?? 'plain') : undefined,
      });
      back.searchParams.set('code', code.code);
      if (spec.platform === 'tiktok') back.searchParams.set('scopes', code.scopes.join(','));
    }
    if (params.state !== undefined) back.searchParams.set('state', params.state);
    res.redirect(303, back.toString());
  });

  return router;
}

/**
 * The accounts the person granted on the consent form (`account`: user ids, or `new` with a `handle`
 * for a new one); a string says what is wrong with the choice.
 */
export function pickedUsers(
  state: SandboxState,
  platform: Platform,
  multiple: boolean,
  body: Record<string, string | string[]>,
): SandboxUser[] | string {
  const picked = ([] as string[]).concat(body.account ?? []);
  const users: SandboxUser[] = [];
  for (const choice of multiple ? picked : picked.slice(0, 1)) {
    if (choice === 'new') {
      const handle = typeof body.handle === 'string' ? body.handle.trim() : '';
      if (!HANDLE.test(handle)) return 'A handle is 1 to 30 letters, digits, dots or underscores.';
      users.push(state.users.create(platform, handle, new Date(state.now())));
    } else {
      const user = state.users.get(choice);
      if (!user || user.platform !== platform) return `No ${platform} account ${choice}.`;
      users.push(user);
    }
  }
  return users.length ? users : 'Choose at least one account to grant.';
}

/** The requested scopes the app is not approved for (`approvedScopes` of the platform's OAuth settings). */
function unapprovedScopes(state: SandboxState, platform: Platform, scope: string | undefined): string[] {
  const approved = state.oauth.settings[platform].approvedScopes;
  if (!approved) return [];
  return (scope ?? '').split(/[\s,]+/).filter((s) => s && !approved.includes(s));
}

/**
 * A scope the app may not ask for goes back to the client as `invalid_scope` (RFC 6749 4.1.2.1),
 * as the platforms answer a permission their review has not granted to the app.
 */
function refuseScopes(res: Response, params: Record<string, string>, unapproved: string[]): void {
  const back = new URL(params.redirect_uri);
  back.searchParams.set('error', 'invalid_scope');
  back.searchParams.set('error_description', `The app is not approved for ${unapproved.join(', ')}.`);
  if (params.state !== undefined) back.searchParams.set('state', params.state);
  res.redirect(303, back.toString());
}

function stringParams(source: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((source ?? {}) as Record<string, unknown>)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** Problems that must not be redirected back (RFC 6749 4.1.2.1): shown to the person instead. */
function checkRequest(params: Record<string, string>, spec: AuthorizeSpec): string | undefined {
  if (!params[spec.clientParam]) return `${spec.clientParam} is required.`;
  if (params.response_type !== 'code') return 'response_type must be code.';
  let redirect: URL;
  try {
    redirect = new URL(params.redirect_uri ?? '');
  } catch {
    return 'redirect_uri must be an absolute URL.';
  }
  if (redirect.protocol !== 'https:' && redirect.protocol !== 'http:') return 'redirect_uri must be an http(s) URL.';
  if (
    params.code_challenge &&
    params.code_challenge_method &&
    !['S256', 'plain'].includes(params.code_challenge_method)
  )
    return 'code_challenge_method must be S256 or plain.';
  return undefined;
}

function sendError(res: Response, platform: Platform, message: string): void {
  res.status(400).type('html').send(errorPage(platform, message));
}
