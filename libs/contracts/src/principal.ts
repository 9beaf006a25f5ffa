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
});
export type Principal = Static<typeof PrincipalSchema>;

export function principalMayUseProfile(principal: Principal, profileId: string): boolean {
  return principal.profileIds === 'all' || principal.profileIds.includes(profileId);
}
