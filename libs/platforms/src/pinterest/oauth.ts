import { OAuthError, oauthMalformed, oauthNetworkError } from '../oauth/oauth-error';
import {
  expiryFrom,
  joinUrl,
  withQuery,
  type GrantTokens,
  type OAuthAppOptions,
  type PlatformAccount,
  type PlatformOAuthClient,
  type RefreshedCredentials,
  type StoredCredentials,
} from '../oauth/oauth-client';
import { oauthAnswerTooLarge, optionalString, scopesOf } from '../oauth/oauth-http';
import { readBoundedAnswer, type BoundedAnswer } from '../http/bounded-answer';
import { isPlatformError } from '../errors';
import { callPinterest, PINTEREST_PLATFORM } from './api';

export interface PinterestOAuthOptions extends OAuthAppOptions {
  /** `https://www.pinterest.com/oauth/` */
  authorizeUrl: string;
  /** `https://api.pinterest.com`: `/v5/oauth/token`, `/v5/user_account`. */
  apiUrl: string;
}

/** Boards to list and choose from, pins to create and read back, the account to know who connected. */
export const PINTEREST_SCOPES = ['boards:read', 'pins:read', 'pins:write', 'user_accounts:read'];

const platform = PINTEREST_PLATFORM;
/** Bytes of a token answer read at most: it is a few hundred. */
const TOKEN_ANSWER_MAX_BYTES = 64 * 1024;

/**
 * Pinterest OAuth (https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/):
 * the consent page at www.pinterest.com/oauth/, the token endpoint with HTTP Basic client
 * authentication. Access tokens last 30 days; with `continuous_refresh` every refresh answers a
 * new refresh token of 60 days, so a connection used at least every two months never lapses.
 * The earlier refresh token keeps working until its own expiry, so a refresh whose answer was
 * lost may be sent again.
 */
export function pinterestOAuth(opts: PinterestOAuthOptions): PlatformOAuthClient {
  const now = opts.now ?? Date.now;
  return {
    platform,
    pkce: false,
    rotatesRefreshToken: false,
    authorizeUrl: ({ redirectUri, state }) =>
      withQuery(opts.authorizeUrl, {
        client_id: opts.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: PINTEREST_SCOPES.join(','),
        state,
      }),
    async exchangeCode({ code, redirectUri }) {
      // POST /v5/oauth/token grant_type=authorization_code: https://developers.pinterest.com/docs/api/v5/oauth-token
      const answer = await tokenCall(opts, 'exchanging the authorization code', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        continuous_refresh: 'true',
      });
      return tokensOf(answer, 'exchanging the authorization code', now());
    },
    async listAccounts(tokens) {
      return [await readPinterestAccount(opts, tokens)];
    },
    async refresh(stored: StoredCredentials): Promise<RefreshedCredentials> {
      if (!stored.refreshToken)
        throw new OAuthError('Pinterest gave no refresh token for this profile; it must be reconnected.', {
          platform,
          transient: false,
          tokenRefused: true,
          code: 'no_refresh_token',
        });
      const action = 'refreshing the access token';
      // POST /v5/oauth/token grant_type=refresh_token: https://developers.pinterest.com/docs/api/v5/oauth-token
      const answer = await tokenCall(opts, action, {
        grant_type: 'refresh_token',
        refresh_token: stored.refreshToken,
        continuous_refresh: 'true',
      });
      const t = tokensOf(answer, action, now());
      return {
        accessToken: t.accessToken,
        refreshToken: t.refreshToken,
        expiresAt: t.expiresAt,
        refreshExpiresAt: t.refreshExpiresAt,
        ...(t.scopes.length && { scopes: t.scopes }),
      };
    },
  };
}

function tokensOf(answer: Record<string, unknown>, action: string, at: number): GrantTokens {
  const accessToken = optionalString(answer.access_token);
  if (!accessToken) throw oauthMalformed(platform, action, 'access_token');
  return {
    accessToken,
    refreshToken: optionalString(answer.refresh_token) ?? null,
    expiresAt: expiryFrom(answer.expires_in, at),
    refreshExpiresAt: expiryFrom(answer.refresh_token_expires_in, at),
    scopes: scopesOf(answer.scope),
  };
}

/**
 * The token endpoint: a form body, the app's id and secret as HTTP Basic. Errors are `{ code, message }`:
 * a 400 on a refresh or a code is a dead grant (reconnect); a 401 blames the app's credentials.
 */
async function tokenCall(
  opts: PinterestOAuthOptions,
  action: string,
  form: Record<string, string>,
): Promise<Record<string, unknown>> {
  const basic = Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64');
  let res: Response;
  let answer: BoundedAnswer;
  try {
    res = await (opts.fetchImpl ?? fetch)(joinUrl(opts.apiUrl, 'v5/oauth/token'), {
      method: 'POST',
      headers: {
        accept: 'application/json',
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
      redirect: 'manual',
    });
    answer = await readBoundedAnswer(res, TOKEN_ANSWER_MAX_BYTES);
  } catch (cause) {
    throw oauthNetworkError(platform, action, cause);
  }
  if (res.ok && answer.cut) throw oauthAnswerTooLarge(platform, action, TOKEN_ANSWER_MAX_BYTES, res.status);
  let body: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(answer.text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    body = undefined;
  }
  if (res.ok && body) return body;
  if (res.ok) throw oauthMalformed(platform, action, 'a JSON object');
  const said = typeof body?.message === 'string' ? body.message.slice(0, 200) : `HTTP ${res.status}`;
  const transient = res.status >= 500 || res.status === 429;
  const tokenRefused = res.status === 400;
  const message = transient
    ? `Pinterest is unavailable right now while ${action} (${said}); it will be tried again.`
    : tokenRefused
      ? `Pinterest refused the authorization while ${action} (${said}); the profile must be reconnected.`
      : `Pinterest rejected the request while ${action} (${said}); check PINTEREST_CLIENT_ID and PINTEREST_CLIENT_SECRET.`;
  return Promise.reject(
    new OAuthError(message, {
      platform,
      transient,
      tokenRefused,
      code: typeof body?.code === 'number' ? body.code : `http_${res.status}`,
      status: res.status,
    }),
  );
}

/** The account the token belongs to: https://developers.pinterest.com/docs/api/v5/user_account-get */
export async function readPinterestAccount(
  opts: Pick<PinterestOAuthOptions, 'apiUrl' | 'fetchImpl' | 'timeoutMs'>,
  tokens: Pick<GrantTokens, 'accessToken' | 'refreshToken' | 'expiresAt' | 'scopes'>,
): Promise<PlatformAccount> {
  let body: Record<string, unknown>;
  try {
    body = await callPinterest(
      { baseUrl: opts.apiUrl, accessToken: tokens.accessToken, fetchImpl: opts.fetchImpl, timeoutMs: opts.timeoutMs },
      { method: 'GET', path: '/v5/user_account' },
    );
  } catch (err) {
    if (!isPlatformError(err)) throw err;
    throw new OAuthError(err.message, {
      platform,
      transient: err.transient,
      tokenRefused: err.tokenRejected,
      code: err.code,
      status: err.status,
      cause: err,
    });
  }
  const username = optionalString(body.username);
  if (!username) throw oauthMalformed(platform, 'reading the Pinterest account', 'username');
  const platformUserId = optionalString(body.id) ?? username;
  return {
    platformUserId,
    handle: username,
    displayName: optionalString(body.business_name) ?? username,
    profileUrl: `https://www.pinterest.com/${encodeURIComponent(username)}/`,
    profileImageUrl: optionalString(body.profile_image) ?? null,
    credentials: {
      platformUserId,
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresAt: tokens.expiresAt,
    },
    scopes: tokens.scopes.length ? tokens.scopes : undefined,
  };
}
