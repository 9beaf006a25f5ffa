import type OAuth2Server from '@node-oauth/oauth2-server';
import type { Logger } from '@postbus/kit';
import type { AuthorizationRequest } from './authorization-request';
import type { ClientDirectory } from './client-directory';
import { secretMatches } from './client.repository';
import { newOpaqueToken, type CodeRow, type GrantRepository, type TokenRow } from './grant.repository';
import { grantOutlived } from './grant-lifetime';
import { InvalidGrantError, InvalidTargetError } from './oauth-errors';
import type { OAuthClient } from './oauth-client';
import { mayRefresh } from './oauth-scopes';
import { redirectUriMatches } from './redirect-uri.rules';

export interface OAuthModelDeps {
  clients: ClientDirectory;
  grants: GrantRepository;
  logger: Logger;
  /** A grant's maximum total lifetime (OAUTH_GRANT_MAX_DAYS), in ms. */
  grantMaxMs: number;
}

/** What one request brings to the model beyond what the library passes it. */
export interface OAuthRequestContext {
  /** The consent being approved (authorization endpoint). */
  approved?: AuthorizationRequest;
  /** The token request's `resource` (RFC 8707), when it names one. */
  resource?: string;
  /** Token endpoint: a client with a secret must present it. */
  authenticateClient?: boolean;
  /** Filled while the request runs: the code or refresh token being exchanged. */
  code?: { code: string; row: CodeRow };
  refresh?: TokenRow;
}

export interface OAuthUser {
  id: string;
  accountId: string;
}

type Model = OAuth2Server.AuthorizationCodeModel & OAuth2Server.RefreshTokenModel;

function libraryClient(c: OAuthClient): OAuth2Server.Client {
  return { id: c.id, name: c.name, redirectUris: c.redirectUris, grants: c.grantTypes };
}

function checkResource(ctx: OAuthRequestContext, granted: string): void {
  if (ctx.resource !== undefined && ctx.resource !== granted)
    throw new InvalidTargetError(`Invalid target: this grant is for ${granted}.`);
}

/**
 * The storage side of @node-oauth/oauth2-server for one request. The library runs the grant
 * mechanics (code and refresh exchanges, PKCE verification, client and redirect checks); this
 * model adds what it lacks: resource binding, refresh tokens only with offline_access, and
 * rotation with reuse detection that revokes the whole grant.
 */
export function oauthModel(deps: OAuthModelDeps, ctx: OAuthRequestContext): Model {
  return {
    ...clientChecks(deps, ctx),
    ...authorizationCodes(deps, ctx),
    ...tokenIssuing(deps, ctx),
    ...refreshTokens(deps, ctx),
  };
}

/** Which client asks, where it may send the person back, and for which scopes. */
function clientChecks(
  deps: OAuthModelDeps,
  ctx: OAuthRequestContext,
): Pick<Model, 'getClient' | 'validateRedirectUri' | 'validateScope'> {
  return {
    async getClient(clientId, clientSecret) {
      if (ctx.approved) return ctx.approved.client.id === clientId ? libraryClient(ctx.approved.client) : false;
      const client = await deps.clients.find(clientId);
      if (!client) return false;
      if (ctx.authenticateClient && !secretMatches(client, clientSecret)) return false;
      return libraryClient(client);
    },

    async validateRedirectUri(redirectUri, client) {
      return redirectUriMatches(redirectUri, (client.redirectUris as string[]) ?? []);
    },

    async validateScope(_user, _client, scope) {
      if (ctx.approved) return ctx.approved.scopes;
      return scope?.length ? scope : false;
    },
  };
}

/** Codes of approved consents: saved once, exchanged once (a second use revokes what the first issued). */
function authorizationCodes(
  { grants }: OAuthModelDeps,
  ctx: OAuthRequestContext,
): Pick<
  Model,
  'generateAuthorizationCode' | 'saveAuthorizationCode' | 'getAuthorizationCode' | 'revokeAuthorizationCode'
> {
  return {
    async generateAuthorizationCode() {
      return newOpaqueToken('oac');
    },

    async saveAuthorizationCode(code, client, user: OAuthUser) {
      const approved = ctx.approved!;
      await grants.saveCode(code.authorizationCode, {
        client_id: client.id,
        user_id: user.id,
        account_id: user.accountId,
        redirect_uri: approved.redirectUri,
        scopes: approved.scopes,
        resource: approved.resource,
        code_challenge: approved.codeChallenge,
        expires_at: code.expiresAt,
        client_name: approved.client.name,
      });
      return { ...code, client, user };
    },

    async getAuthorizationCode(code) {
      const row = await grants.findCode(code);
      if (!row) return false;
      if (row.used_at) {
        if (row.grant_id) await grants.revokeGrant(row.grant_id, 'authorization code used again');
        throw new InvalidGrantError(
          'Invalid grant: the authorization code was already used; the tokens issued for it are revoked.',
        );
      }
      checkResource(ctx, row.resource);
      ctx.code = { code, row };
      return {
        authorizationCode: code,
        expiresAt: new Date(row.expires_at),
        redirectUri: row.redirect_uri,
        scope: row.scopes,
        client: { id: row.client_id, grants: [] },
        user: { id: row.user_id, accountId: row.account_id } satisfies OAuthUser,
        codeChallenge: row.code_challenge,
        codeChallengeMethod: 'S256',
      };
    },

    async revokeAuthorizationCode(code) {
      return grants.useCode(code.authorizationCode);
    },
  };
}

/** The tokens a code or refresh exchange issues, stored on the grant it opens or extends. */
function tokenIssuing(
  { grants }: OAuthModelDeps,
  ctx: OAuthRequestContext,
): Pick<Model, 'generateAccessToken' | 'generateRefreshToken' | 'saveToken' | 'getAccessToken'> {
  return {
    async generateAccessToken() {
      return newOpaqueToken('oat');
    },

    async generateRefreshToken(client, _user, scope) {
      // The library issues whatever this answers; without offline_access there is no refresh token.
      const grantsRefresh = ([] as string[]).concat(client.grants).includes('refresh_token');
      return (mayRefresh(scope ?? []) && grantsRefresh ? newOpaqueToken('ort') : null) as unknown as string;
    },

    async saveToken(token, client, user) {
      const refresh = token.refreshToken
        ? { token: token.refreshToken, expiresAt: token.refreshTokenExpiresAt! }
        : undefined;
      const issued = {
        scopes: token.scope ?? [],
        access: { token: token.accessToken, expiresAt: token.accessTokenExpiresAt! },
        refresh,
      };
      if (ctx.code) await grants.openGrant(ctx.code.code, ctx.code.row, issued);
      else if (ctx.refresh) await grants.extendGrant(ctx.refresh.grant_id, issued);
      else throw new Error('tokens asked for outside a code or refresh exchange');
      return { ...token, refreshToken: refresh?.token, refreshTokenExpiresAt: refresh?.expiresAt, client, user };
    },

    async getAccessToken() {
      // Access tokens are verified over RPC (auth.tokens.verify), never through the library's authenticate().
      return false;
    },
  };
}

/** Refresh tokens: rotated on every use; a reused one revokes its whole grant. */
function refreshTokens(deps: OAuthModelDeps, ctx: OAuthRequestContext): Pick<Model, 'getRefreshToken' | 'revokeToken'> {
  const { grants } = deps;
  return {
    async getRefreshToken(refreshToken) {
      const row = await grants.findToken(refreshToken);
      if (!row || row.kind !== 'refresh') return false;
      if (row.revoked_at || row.grant_revoked_at)
        throw new InvalidGrantError('Invalid grant: the refresh token has been revoked.');
      if (row.rotated_at) {
        await grants.revokeGrant(row.grant_id, 'refresh token reused');
        deps.logger.warn('refresh token reused; grant revoked', { grantId: row.grant_id, clientId: row.client_id });
        throw new InvalidGrantError(
          'Invalid grant: the refresh token was already used; every token of this grant is now revoked.',
        );
      }
      if (grantOutlived(row.grant_created_at, deps.grantMaxMs))
        throw new InvalidGrantError(
          'Invalid grant: this authorization has reached its maximum lifetime; ask the person to authorize again.',
        );
      checkResource(ctx, row.resource);
      ctx.refresh = row;
      return {
        refreshToken,
        refreshTokenExpiresAt: new Date(row.expires_at),
        scope: row.scopes,
        client: { id: row.client_id, grants: [] },
        user: { id: row.user_id, accountId: row.account_id } satisfies OAuthUser,
      };
    },

    async revokeToken() {
      // Rotation: the refresh token being exchanged is used up; false when another request used it first.
      return ctx.refresh ? grants.rotate(ctx.refresh.id) : false;
    },
  };
}
