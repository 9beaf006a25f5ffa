import { Type, type Static } from '@sinclair/typebox';
import { PrincipalSchema } from '../principal';
import { defineRpc } from './define';

/** Plans an account may be on: `trial` (14 days from creation), paid plans, and `expired` (no entitlement). */
export const ACCOUNT_PLANS = ['trial', 'pro', 'business', 'enterprise', 'expired'] as const;
export type AccountPlan = (typeof ACCOUNT_PLANS)[number];

const ProfileRestrictionSchema = Type.Union(
  [Type.Literal('all'), Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })],
  {
    description: "'all' connected accounts, or a list of profile ids",
  },
);

export const AccountSummarySchema = Type.Object({
  accountId: Type.String(),
  plan: Type.String(),
  tester: Type.Boolean(),
  disabled: Type.Boolean(),
  trialEndsAt: Type.String(),
  createdAt: Type.String(),
  /** Whether the account may use the API now (tester, paid plan, or trial not over). */
  entitled: Type.Boolean(),
  quotas: Type.Object({ scheduledPostsPerMonth: Type.Integer(), storageBytes: Type.Integer() }),
});
export type AccountSummary = Static<typeof AccountSummarySchema>;

/** An API key as listed to its owner and operators; the secret itself is never shown again. */
export const ApiKeySummarySchema = Type.Object({
  keyId: Type.String(),
  accountId: Type.String(),
  userId: Type.String(),
  name: Type.String(),
  /** The key's visible start, e.g. `sk_live_Ab12Cd34Ef56…`, enough to recognise it. */
  prefix: Type.String(),
  scopes: Type.Array(Type.String()),
  /** Scopes held beyond `scopes` only until LEGACY_WEBHOOK_ACCESS.sunset (keys issued while post:read opened webhooks). */
  deprecatedScopes: Type.Optional(Type.Array(Type.String())),
  profileIds: ProfileRestrictionSchema,
  status: Type.Union([Type.Literal('active'), Type.Literal('revoked'), Type.Literal('expired')]),
  createdAt: Type.String(),
  expiresAt: Type.Union([Type.String(), Type.Null()]),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
  revokedAt: Type.Union([Type.String(), Type.Null()]),
});
export type ApiKeySummary = Static<typeof ApiKeySummarySchema>;

/** A short-lived JWT for the agent endpoint, answered by the deprecated API-key exchanges. */
export const McpTokenSchema = Type.Object({
  token: Type.String({ description: 'A JWT to send as Authorization: Bearer <token> to the agent endpoint' }),
  tokenType: Type.Literal('Bearer'),
  expiresIn: Type.Integer({ description: 'Seconds until the token expires' }),
  expiresAt: Type.String({ format: 'date-time' }),
});
export type McpToken = Static<typeof McpTokenSchema>;

export const AuthRpc = {
  /** The principal's own account: plan, trial and quotas (asked by posts and media before they count). */
  authGetAccount: defineRpc('auth.accounts.get', Type.Object({}), AccountSummarySchema),
  /** An OAuth access token for `resource` → the Principal it stands for (invalid_api_key when not valid). */
  authVerifyAccessToken: defineRpc(
    'auth.tokens.verify',
    Type.Object({ token: Type.String(), resource: Type.String() }),
    PrincipalSchema,
    { anonymous: true },
  ),
  /** Deprecated: an API key → a short-lived JWT for the agent endpoint (the key's own principal, checked again at every use). */
  authExchangeKey: defineRpc('auth.tokens.exchange', Type.Object({ token: Type.String() }), McpTokenSchema, {
    anonymous: true,
  }),
  authVerifyKey: defineRpc('auth.keys.verify', Type.Object({ token: Type.String() }), PrincipalSchema, {
    anonymous: true,
  }),
  authCreateAccount: defineRpc(
    'auth.accounts.create',
    Type.Object({
      email: Type.String({ format: 'email' }),
      password: Type.Optional(Type.String({ minLength: 8 })),
      plan: Type.Optional(Type.String()),
      tester: Type.Optional(Type.Boolean()),
    }),
    Type.Object({ accountId: Type.String(), userId: Type.String() }),
    { anonymous: true, operator: true },
  ),
  /** Issues a key, returned once. Without userId the account's first user owns it (operators). */
  authIssueKey: defineRpc(
    'auth.keys.issue',
    Type.Object({
      accountId: Type.String(),
      userId: Type.Optional(Type.String()),
      name: Type.String(),
      scopes: Type.Array(Type.String()),
      profileIds: Type.Optional(ProfileRestrictionSchema),
      expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
    }),
    Type.Object({ keyId: Type.String(), key: Type.String() }),
    { anonymous: true, operator: true },
  ),
  /** Operators: change an account's plan, tester flag, trial end or disabled state. */
  authUpdateAccount: defineRpc(
    'auth.accounts.update',
    Type.Object(
      {
        accountId: Type.String(),
        plan: Type.Optional(Type.Union(ACCOUNT_PLANS.map((p) => Type.Literal(p)))),
        tester: Type.Optional(Type.Boolean()),
        disabled: Type.Optional(Type.Boolean()),
        trialEndsAt: Type.Optional(Type.String({ format: 'date-time' })),
      },
      { additionalProperties: false },
    ),
    AccountSummarySchema,
    { anonymous: true, operator: true },
  ),
  /** Operators: disable or re-enable one user; the user's keys answer api_access_disabled meanwhile. */
  authUpdateUser: defineRpc(
    'auth.users.update',
    Type.Object({ userId: Type.String(), disabled: Type.Boolean() }, { additionalProperties: false }),
    Type.Object({ userId: Type.String(), accountId: Type.String(), email: Type.String(), disabled: Type.Boolean() }),
    { anonymous: true, operator: true },
  ),
  /** Operators: every key of an account, newest first. */
  authListKeys: defineRpc(
    'auth.keys.list',
    Type.Object({ accountId: Type.String() }),
    Type.Object({ keys: Type.Array(ApiKeySummarySchema) }),
    { anonymous: true, operator: true },
  ),
  /** Revokes a key (idempotent) and announces `auth.key.revoked`; with accountId, only a key of that account. */
  authRevokeKey: defineRpc(
    'auth.keys.revoke',
    Type.Object({ keyId: Type.String(), accountId: Type.Optional(Type.String()) }),
    ApiKeySummarySchema,
    { anonymous: true, operator: true },
  ),
};

/** When the API-key-for-JWT exchanges (`POST {base_url}/api/auth/mcp-token`, `POST {mcp_host}/auth`) were deprecated and when they stop. */
export const MCP_TOKEN_EXCHANGE_DEPRECATION = {
  deprecatedAt: '2026-11-01T00:00:00Z',
  sunsetAt: '2027-06-01T00:00:00Z',
} as const;

/** RFC 9745 `Deprecation` and RFC 8594 `Sunset` headers of the deprecated exchanges, with a link to what replaces them. */
export function deprecationHeaders(replacementUrl: string): Record<string, string> {
  const { deprecatedAt, sunsetAt } = MCP_TOKEN_EXCHANGE_DEPRECATION;
  return {
    Deprecation: `@${Math.floor(Date.parse(deprecatedAt) / 1000)}`,
    Sunset: new Date(sunsetAt).toUTCString(),
    Link: `<${replacementUrl}>; rel="successor-version"`,
  };
}
