import OAuth2Server from '@node-oauth/oauth2-server';
import { redirectWith, type AuthorizationRequest } from './authorization-request';
import { basicCredentials, type ClientCredentials } from './client-credentials';
import { isOAuthError } from './oauth-errors';
import { oauthModel, type OAuthModelDeps, type OAuthUser } from './oauth-model';

export interface AuthorizationServerOptions {
  issuer: string;
  codeTtlSeconds: number;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
}

export interface TokenAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

type TokenRequest = { headers: Record<string, string | string[] | undefined>; body: Record<string, unknown> };

/**
 * The library reads HTTP Basic credentials without the form-decoding RFC 6749 §2.3.1 asks for, so
 * the decoded credentials reach it as the form's client_id and client_secret instead.
 */
function withDecodedBasic(http: TokenRequest, basic: ClientCredentials): TokenRequest {
  const { authorization: _basic, ...headers } = http.headers;
  return { headers, body: { ...http.body, client_id: basic.clientId, client_secret: basic.clientSecret } };
}

/**
 * The authorization code and refresh token grants, run by @node-oauth/oauth2-server over our
 * model; adds the issuer to every authorization response (RFC 9207).
 */
export class AuthorizationServer {
  constructor(
    private readonly deps: OAuthModelDeps,
    private readonly options: AuthorizationServerOptions,
  ) {}

  /** Issues a code for a consent the person approved; answers where to send them. */
  async approve(approved: AuthorizationRequest, user: OAuthUser): Promise<string> {
    const model = oauthModel(this.deps, { approved });
    const request = new OAuth2Server.Request({
      method: 'POST',
      headers: {},
      query: {},
      body: {
        client_id: approved.client.id,
        redirect_uri: approved.redirectUri,
        response_type: 'code',
        state: approved.state,
        code_challenge: approved.codeChallenge,
        code_challenge_method: 'S256',
      },
    });
    const response = new OAuth2Server.Response();
    try {
      await new OAuth2Server({ model }).authorize(request, response, {
        authenticateHandler: { handle: () => user },
        allowEmptyState: true,
        authorizationCodeLifetime: this.options.codeTtlSeconds,
      });
    } catch (err) {
      if (!isOAuthError(err)) throw err;
      this.deps.logger.error('authorization failed after consent', { error: err.name, message: err.message });
      return redirectWith(
        approved.redirectUri,
        {
          error: 'server_error',
          error_description: 'The authorization could not be completed.',
          state: approved.state,
        },
        this.options.issuer,
      );
    }
    const location = new URL(response.get('location') as string);
    location.searchParams.set('iss', this.options.issuer);
    return location.toString();
  }

  /** The token endpoint: a code (with its PKCE verifier) or a refresh token → tokens, or an OAuth error. */
  async token(http: TokenRequest): Promise<TokenAnswer> {
    const resource = http.body.resource;
    const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };
    // RFC 6749 §5.2: a client that tried HTTP Basic and failed learns 401 with the scheme.
    const basicRefused = (description: string) => ({
      status: 401,
      headers: { ...noStore, 'www-authenticate': 'Basic realm="postbus"' },
      body: { error: 'invalid_client', error_description: description },
    });
    const basic = basicCredentials(http.headers.authorization);
    if (basic && !basic.clientId) return basicRefused('Invalid client: the Basic credentials cannot be read.');
    const sent = basic ? withDecodedBasic(http, basic) : http;
    const model = oauthModel(this.deps, {
      resource: typeof resource === 'string' ? resource : undefined,
      authenticateClient: true,
    });
    const request = new OAuth2Server.Request({
      method: 'POST',
      headers: sent.headers as Record<string, string>,
      query: {},
      body: sent.body,
    });
    const response = new OAuth2Server.Response();
    if (resource !== undefined && typeof resource !== 'string') {
      return {
        status: 400,
        headers: noStore,
        body: { error: 'invalid_target', error_description: 'Name one resource.' },
      };
    }
    try {
      await new OAuth2Server({ model }).token(request, response, {
        accessTokenLifetime: this.options.accessTokenTtlSeconds,
        refreshTokenLifetime: this.options.refreshTokenTtlSeconds,
        requireClientAuthentication: { authorization_code: false, refresh_token: false },
        alwaysIssueNewRefreshToken: true,
      });
    } catch (err) {
      if (!isOAuthError(err)) throw err;
      if (err.name === 'server_error') {
        this.deps.logger.error('token request failed', { err: (err as { inner?: Error }).inner?.stack ?? err.message });
        return {
          status: 500,
          headers: noStore,
          body: { error: 'server_error', error_description: 'The token could not be issued; try again.' },
        };
      }
      if (basic && err.name === 'invalid_client') return basicRefused(err.message);
    }
    // The library types the body it fills as `any`; it is the token response's JSON object.
    return {
      status: response.status ?? 200,
      headers: { ...(response.headers ?? {}), ...noStore },
      body: response.body as Record<string, unknown>,
    };
  }
}
