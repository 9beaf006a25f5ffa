import { callOAuth, optionalString, requireString, scopesOf } from '../oauth/oauth-http';
import {
  expiryFrom,
  withQuery,
  type GrantTokens,
  type OAuthAppOptions,
  type PlatformAccount,
  type PlatformOAuthClient,
  type RefreshedCredentials,
  type StoredCredentials,
} from '../oauth/oauth-client';
import { OAuthError } from '../oauth/oauth-error';
import { isPlatformError } from '../errors';
import { LINKEDIN_PLATFORM, callLinkedIn, type LinkedInApiOptions } from './api';

export interface LinkedInOAuthOptions extends OAuthAppOptions {
  /** `https://www.linkedin.com/oauth/v2/authorization` */
  authorizeUrl: string;
  /** `https://www.linkedin.com/oauth/v2/accessToken` */
  tokenUrl: string;
  /** `https://api.linkedin.com`: `/v2/userinfo`, `/rest/organizationAcls`, `/rest/organizations`. */
  apiUrl: string;
  /** `LinkedIn-Version` of the /rest calls (YYYYMM). */
  version: string;
  scopes?: string[];
}

/**
 * Sign In with LinkedIn (openid profile) to know the member, w_member_social to post as the member,
 * and, with the Community Management API, r_organization_admin to list the organizations the member
 * administers and w_organization_social to post as them:
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#permissions
 */
export const LINKEDIN_SCOPES = [
  'openid',
  'profile',
  'w_member_social',
  'w_organization_social',
  'r_organization_admin',
];
/** Organization roles that may post as the organization (organizationAcls `role`). */
export const LINKEDIN_POSTING_ROLES = ['ADMINISTRATOR', 'CONTENT_ADMIN', 'DIRECT_SPONSORED_CONTENT_POSTER'];

const platform = LINKEDIN_PLATFORM;

/**
 * LinkedIn's 3-legged OAuth (https://learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow):
 * no PKCE for web apps; access tokens last 60 days; refresh tokens come only to apps LinkedIn approved
 * for programmatic refresh, last a year and are not replaced by a refresh
 * (https://learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens).
 * A grant yields the member and each organization the member may post for: every one a profile.
 */
export function linkedInOAuth(opts: LinkedInOAuthOptions): PlatformOAuthClient {
  const now = opts.now ?? Date.now;
  const api = (accessToken: string): LinkedInApiOptions => ({
    baseUrl: opts.apiUrl,
    accessToken,
    version: opts.version,
    timeoutMs: opts.timeoutMs,
    fetchImpl: opts.fetchImpl,
  });
  return {
    platform,
    pkce: false,
    rotatesRefreshToken: false,
    authorizeUrl: ({ redirectUri, state }) =>
      withQuery(opts.authorizeUrl, {
        response_type: 'code',
        client_id: opts.clientId,
        redirect_uri: redirectUri,
        state,
        scope: (opts.scopes ?? LINKEDIN_SCOPES).join(' '),
      }),

    // https://learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow#step-3-exchange-authorization-code-for-an-access-token
    async exchangeCode({ code, redirectUri }) {
      const action = 'exchanging the authorization code';
      const answer = await callOAuth(opts, {
        platform,
        action,
        method: 'POST',
        url: opts.tokenUrl,
        form: {
          grant_type: 'authorization_code',
          code,
          client_id: opts.clientId,
          client_secret: opts.clientSecret,
          redirect_uri: redirectUri,
        },
        isSuccess: isToken,
      });
      return tokensOf(answer, action, now());
    },

    async listAccounts(tokens) {
      const member = await asOAuthError(() => readLinkedInMember(api(tokens.accessToken)));
      const credentials = (platformUserId: string): StoredCredentials => ({
        platformUserId,
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        expiresAt: tokens.expiresAt,
      });
      const accounts: PlatformAccount[] = [
        { ...member, credentials: credentials(member.platformUserId), scopes: tokens.scopes },
      ];
      if (!tokens.scopes.includes('r_organization_admin')) return accounts;
      const orgs = await asOAuthError(() => readLinkedInOrganizations(api(tokens.accessToken)));
      for (const org of orgs)
        accounts.push({ ...org, credentials: credentials(org.platformUserId), scopes: tokens.scopes });
      return accounts;
    },

    // https://learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens
    refresh: (stored) => refreshLinkedInTokens(opts, now, stored),
  };
}

/** Trades the stored refresh token for a new access token; LinkedIn answers the same refresh token, its lifetime running on. */
async function refreshLinkedInTokens(
  opts: LinkedInOAuthOptions,
  now: () => number,
  stored: StoredCredentials,
): Promise<RefreshedCredentials> {
  if (!stored.refreshToken)
    throw new OAuthError(
      'LinkedIn gave this app no refresh token (programmatic refresh is for approved partners): reconnect the profile before its 60-day token expires.',
      { platform, transient: false, tokenRefused: true, code: 'no_refresh_token' },
    );
  const action = 'refreshing the access token';
  const answer = await callOAuth(opts, {
    platform,
    action,
    method: 'POST',
    url: opts.tokenUrl,
    form: {
      grant_type: 'refresh_token',
      refresh_token: stored.refreshToken,
      client_id: opts.clientId,
      client_secret: opts.clientSecret,
    },
    isSuccess: isToken,
  });
  const tokens = tokensOf(answer, action, now());
  return {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    expiresAt: tokens.expiresAt,
    refreshExpiresAt: tokens.refreshExpiresAt,
    ...(tokens.scopes.length && { scopes: tokens.scopes }),
  };
}

const isToken = (b: Record<string, unknown>) => typeof b.access_token === 'string' && !b.error;

function tokensOf(answer: Record<string, unknown>, action: string, now: number): GrantTokens {
  return {
    accessToken: requireString(platform, action, answer, 'access_token'),
    refreshToken: optionalString(answer.refresh_token) ?? null,
    expiresAt: expiryFrom(answer.expires_in, now),
    refreshExpiresAt: expiryFrom(answer.refresh_token_expires_in, now),
    // LinkedIn lists the granted scopes comma-separated.
    scopes: scopesOf(answer.scope),
  };
}

type LinkedInAccount = Omit<PlatformAccount, 'credentials' | 'scopes'>;

/** A member's author URN; a profile's platformUserId is the URN it posts as. */
export const linkedInPersonUrn = (id: string) => `urn:li:person:${id}`;
export const linkedInOrganizationUrn = (id: string) => `urn:li:organization:${id}`;

/** The member the token belongs to: https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2#api-request-to-retreive-member-details */
export async function readLinkedInMember(api: LinkedInApiOptions): Promise<LinkedInAccount> {
  const { body } = await callLinkedIn(api, { method: 'GET', path: '/v2/userinfo' });
  const sub = requireString(platform, 'reading the member', body, 'sub');
  const name = optionalString(body.name) ?? sub;
  return {
    platformUserId: linkedInPersonUrn(sub),
    handle: name,
    displayName: name,
    // userinfo carries no vanity name, so the member's own page is not known: the feed stands in.
    profileUrl: 'https://www.linkedin.com/feed/',
    profileImageUrl: optionalString(body.picture) ?? null,
  };
}

/**
 * The organizations the member may post for: approved roles from organizationAcls
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/organization-access-control-by-role),
 * each named by the Organizations API (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/organization-lookup-api).
 */
export async function readLinkedInOrganizations(api: LinkedInApiOptions): Promise<LinkedInAccount[]> {
  const { body } = await callLinkedIn<{ elements?: Record<string, unknown>[] }>(api, {
    method: 'GET',
    path: '/rest/organizationAcls',
    query: { q: 'roleAssignee', state: 'APPROVED', count: '100' },
  });
  const ids = new Set<string>();
  for (const acl of body.elements ?? []) {
    const org = typeof acl.organization === 'string' ? acl.organization : '';
    const id = /^urn:li:organization:(\d+)$/.exec(org)?.[1];
    if (id && acl.state === 'APPROVED' && LINKEDIN_POSTING_ROLES.includes(String(acl.role))) ids.add(id);
  }
  const out: LinkedInAccount[] = [];
  for (const id of [...ids].slice(0, 50)) {
    const { body: org } = await callLinkedIn(api, { method: 'GET', path: `/rest/organizations/${id}` });
    const name = optionalString(org.localizedName) ?? `Organization ${id}`;
    const vanity = optionalString(org.vanityName);
    out.push({
      platformUserId: linkedInOrganizationUrn(id),
      handle: vanity ?? id,
      displayName: name,
      profileUrl: `https://www.linkedin.com/company/${encodeURIComponent(vanity ?? id)}/`,
      profileImageUrl: null,
    });
  }
  return out;
}

async function asOAuthError<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof OAuthError || !isPlatformError(err)) throw err;
    throw new OAuthError(err.message, {
      platform,
      transient: err.transient,
      tokenRefused: err.tokenRejected,
      code: err.code,
      status: err.status,
      cause: err,
    });
  }
}
