import { Type, type Static } from '@sinclair/typebox';

export const SCOPES = [
  'post:write',
  'post:read',
  'post:draft',
  'media:write',
  'account:read',
  'account:write',
  'approval:request',
  'automation:read',
  'automation:write',
  'webhook:read',
  'webhook:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * Before webhook:read and webhook:write existed, post:read opened every webhook route. Keys issued
 * then keep that access (their `legacy_webhook_scopes` mark, set by auth's migration) until
 * `sunset`; answers that use it carry `Deprecation`, `Sunset` and a `Link` to the docs.
 */
export const LEGACY_WEBHOOK_ACCESS = {
  scopes: ['webhook:read', 'webhook:write'] as Scope[],
  /** When post:read stopped being the webhook scope (RFC 9745 Deprecation). */
  deprecatedAt: '2026-12-01T00:00:00Z',
  /** When post:read stops opening webhooks for those keys too (RFC 8594 Sunset). */
  sunset: '2027-03-01T00:00:00Z',
  /** Where the change is described, under the public base URL. */
  docsPath: '/docs/api#section/Authentication',
};

/** Who is calling, resolved once at the edge and trusted by every service. */
export const PrincipalSchema = Type.Object({
  accountId: Type.String(),
  userId: Type.String(),
  credential: Type.Object({
    type: Type.Union([Type.Literal('api_key'), Type.Literal('oauth'), Type.Literal('system')]),
    id: Type.String(),
  }),
  scopes: Type.Array(Type.String()),
  profileIds: Type.Union([Type.Literal('all'), Type.Array(Type.String())]),
  /** Scopes of `scopes` held only for a deprecation period (LEGACY_WEBHOOK_ACCESS): answers using them say so. */
  deprecatedScopes: Type.Optional(Type.Array(Type.String())),
  /**
   * The account's plan quotas when the credential was verified (API keys), so a create needs no
   * call to auth for them; as fresh as the edge's cached verdict (AUTH_CACHE_MS). Absent: ask auth.
   */
  quotas: Type.Optional(Type.Object({ scheduledPostsPerMonth: Type.Integer(), storageBytes: Type.Integer() })),
});
export type Principal = Static<typeof PrincipalSchema>;

/**
 * A service calling another on an account's behalf with no credential of the account's: it names
 * itself as the credential and holds only the scopes the call needs. `userId` is the person it
 * acts for, when there is one (a signed-in session); otherwise `system`.
 */
export function systemPrincipal(opts: {
  service: string;
  accountId: string;
  scopes: Scope[];
  userId?: string;
}): Principal {
  return {
    accountId: opts.accountId,
    userId: opts.userId ?? 'system',
    credential: { type: 'system', id: opts.service },
    scopes: [...opts.scopes],
    profileIds: 'all',
  };
}

export function principalMayUseProfile(principal: Principal, profileId: string): boolean {
  return principal.profileIds === 'all' || principal.profileIds.includes(profileId);
}

/** The profiles a principal is limited to, for filtering reads; undefined when it may use every profile. */
export function profileLimitOf(principal: Principal): string[] | undefined {
  return principal.profileIds === 'all' ? undefined : principal.profileIds;
}
