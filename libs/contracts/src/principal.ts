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
] as const;
export type Scope = (typeof SCOPES)[number];

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
  /**
   * The account's plan quotas when the credential was verified (API keys), so a create needs no
   * call to auth for them; as fresh as the edge's cached verdict (AUTH_CACHE_MS). Absent: ask auth.
   */
  quotas: Type.Optional(Type.Object({ scheduledPostsPerMonth: Type.Integer(), storageBytes: Type.Integer() })),
});
export type Principal = Static<typeof PrincipalSchema>;

export function principalMayUseProfile(principal: Principal, profileId: string): boolean {
  return principal.profileIds === 'all' || principal.profileIds.includes(profileId);
}
