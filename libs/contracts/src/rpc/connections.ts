import { Type, type Static } from '@sinclair/typebox';
import { defineRpc } from './define';
import { PinterestBoardsSchema } from '../pinterest';

const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

/** Profile states: `active` publishes; `needs_reconnect` after the platform refused its token for good; `disconnected` after DELETE. */
export const PROFILE_STATUSES = ['active', 'needs_reconnect', 'disconnected'] as const;
export type ProfileStatus = (typeof PROFILE_STATUSES)[number];

/** A profile as services see it (posts, publisher); never carries token material. */
export const ProfileSchema = Type.Object({
  id: Type.String(),
  accountId: Type.String(),
  platform: Type.String(),
  handle: Type.String(),
  profileUrl: Type.String(),
  profileImageUrl: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  statusReason: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  tokenExpiresAt: Type.Union([Type.String(), Type.Null()]),
  connectedAt: Type.String(),
  updatedAt: Type.String(),
  /** Grows with every change of status; the same counter as connection.changed carries. */
  revision: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type Profile = Static<typeof ProfileSchema>;

/** A connected account as clients see it (spec 2.1), plus its status. Token material is never returned. */
export const ConnectedAccountSchema = Type.Object({
  id: Type.String({ description: 'Profile id, used in profileIds.' }),
  platform: Type.String(),
  handle: Type.String(),
  profileUrl: Type.String(),
  profileImageUrl: Type.Union([Type.String(), Type.Null()]),
  tokenExpiresAt: Type.Union([Timestamp, Type.Null()], {
    description: 'When the platform token expires; it is refreshed ahead of time.',
  }),
  connectedAt: Timestamp,
  updatedAt: Timestamp,
  status: Type.Union(
    PROFILE_STATUSES.map((s) => Type.Literal(s)),
    { description: 'active, or needs_reconnect once the platform refused its token for good (statusReason says why).' },
  ),
  statusReason: Type.Union([Type.String(), Type.Null()]),
});
export type ConnectedAccount = Static<typeof ConnectedAccountSchema>;

export const ConnectedAccountListSchema = Type.Object({
  accounts: Type.Array(ConnectedAccountSchema),
  count: Type.Integer(),
});

/** A connection request (spec 2.2): the handoff link a person opens in a browser. */
export const ConnectionRequestSchema = Type.Object({
  requestId: Type.String(),
  platform: Type.String(),
  connectUrl: Type.String({
    description: 'Single-use, short-lived link under {base_url}; open it in a browser to finish the OAuth flow.',
  }),
  expiresAt: Timestamp,
});
export type ConnectionRequest = Static<typeof ConnectionRequestSchema>;

export const CONNECTION_REQUEST_STATUSES = ['pending', 'completed', 'expired', 'failed'] as const;
export type ConnectionRequestStatus = (typeof CONNECTION_REQUEST_STATUSES)[number];

export const ConnectionRequestStateSchema = Type.Object({
  requestId: Type.String(),
  platform: Type.String(),
  status: Type.Union(CONNECTION_REQUEST_STATUSES.map((s) => Type.Literal(s))),
  profileId: Type.Union([Type.String(), Type.Null()], { description: 'The connected profile once completed.' }),
  failureReason: Type.Union([Type.String(), Type.Null()]),
  expiresAt: Timestamp,
  createdAt: Timestamp,
  completedAt: NullableTimestamp,
});
export type ConnectionRequestState = Static<typeof ConnectionRequestStateSchema>;

/** TikTok creator_info, as the posting options a TikTok post must respect. */
export const TikTokPostingOptionsSchema = Type.Object({
  profileId: Type.String(),
  creatorUsername: Type.String(),
  creatorNickname: Type.String({ description: 'Must be shown to the person posting.' }),
  privacyLevelOptions: Type.Array(Type.String(), { description: 'The privacyLevel values this creator may use.' }),
  commentDisabled: Type.Boolean({
    description: 'True: comments are off for this creator; disableComment must stay true.',
  }),
  duetDisabled: Type.Boolean(),
  stitchDisabled: Type.Boolean(),
  maxVideoPostDurationSec: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Longest video this creator may post, in seconds.',
  }),
});
export type TikTokPostingOptions = Static<typeof TikTokPostingOptionsSchema>;

/** What a profile still lacks to publish (GET /connections/{id}/health): token, scopes, quota, TikTok audit mode. */
export const ConnectionHealthSchema = Type.Object({
  profileId: Type.String(),
  platform: Type.String(),
  handle: Type.String(),
  status: Type.Union(PROFILE_STATUSES.map((s) => Type.Literal(s))),
  statusReason: Type.Union([Type.String(), Type.Null()]),
  checkedAt: Timestamp,
  token: Type.Object({
    expiresAt: Type.Union([Timestamp, Type.Null()], { description: 'Null: the token does not expire.' }),
    expired: Type.Boolean(),
    lastRefreshAt: NullableTimestamp,
    nextRefreshAt: Type.Union([Timestamp, Type.Null()], {
      description: 'When the refresher will renew it; null when it needs no refresh.',
    }),
    lastRefreshError: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the last refresh failed; null once one succeeds.',
    }),
    lastRefreshErrorAt: NullableTimestamp,
  }),
  scopes: Type.Object({
    granted: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: 'As the platform listed them at connect or refresh; null when it did not say.',
    }),
    needed: Type.Array(Type.String(), { description: 'What publishing needs.' }),
    missing: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: 'Needed but not granted; null when the grant is unknown.',
    }),
    firstCommentMissing: Type.Optional(
      Type.Union([Type.Array(Type.String()), Type.Null()], {
        description:
          'YouTube: scopes first comments need (youtube.force-ssl) that were not granted; null when the grant is unknown. Publishing works without them; first comments fail.',
      }),
    ),
  }),
  quota: Type.Object({
    source: Type.Union([Type.String(), Type.Null()], {
      description: 'The platform call the figures come from, e.g. content_publishing_limit.',
    }),
    used: Type.Union([Type.Integer(), Type.Null()]),
    total: Type.Union([Type.Integer(), Type.Null()]),
    remaining: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Posts the platform still accepts in its rolling window; null when it does not tell.',
    }),
    windowSeconds: Type.Union([Type.Integer(), Type.Null()]),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'Why the figures are null.' }),
  }),
  tiktok: Type.Union([
    Type.Object({
      clientAudited: Type.Boolean({
        description: "TIKTOK_CLIENT_AUDITED: whether the app passed TikTok's content-posting audit.",
      }),
      privacyLevelOptions: Type.Union([Type.Array(Type.String()), Type.Null()], {
        description: 'creator_info; null when it could not be read.',
      }),
      accountPrivate: Type.Union([Type.Boolean(), Type.Null()], {
        description: 'creator_info offers no PUBLIC_TO_EVERYONE.',
      }),
      selfOnly: Type.Boolean({
        description: 'Posts can only be SELF_ONLY: an unaudited client, or creator_info offers nothing else.',
      }),
    }),
    Type.Null(),
  ]),
  problems: Type.Array(Type.String(), {
    description: 'What stops or limits publishing now, in words; empty when nothing does.',
  }),
});
export type ConnectionHealth = Static<typeof ConnectionHealthSchema>;

export const CredentialsSchema = Type.Object({
  profileId: Type.String(),
  platform: Type.String(),
  platformUserId: Type.String(),
  handle: Type.String(),
  accessToken: Type.String(),
  status: Type.String(),
  tokenExpiresAt: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** Bluesky through OAuth: the account's PDS, which the DPoP-bound access token is for. */
  serviceUrl: Type.Optional(Type.String()),
  /** Bluesky through OAuth: the session's DPoP private key (a P-256 JWK) every call is signed with. */
  dpopJwk: Type.Optional(Type.Record(Type.String(), Type.String())),
});
export type Credentials = Static<typeof CredentialsSchema>;

export const ConnectionsRpc = {
  connectionsListProfiles: defineRpc(
    'connections.profiles.list',
    Type.Object({
      platforms: Type.Optional(Type.Array(Type.String())),
      ids: Type.Optional(Type.Array(Type.String())),
      includeInactive: Type.Optional(Type.Boolean()),
    }),
    Type.Object({ profiles: Type.Array(ProfileSchema) }),
  ),
  /** Connected accounts visible to the principal's key (its profile restriction applies). */
  connectionsListAccounts: defineRpc('connections.accounts.list', Type.Object({}), ConnectedAccountListSchema),
  /** Disconnects a profile: its tokens are erased and connection.revoked is announced. Answers the final state. */
  connectionsDisconnect: defineRpc(
    'connections.accounts.disconnect',
    Type.Object({ id: Type.String() }),
    ConnectedAccountSchema,
  ),
  connectionsCreateRequest: defineRpc(
    'connections.requests.create',
    Type.Object({ platform: Type.String() }),
    ConnectionRequestSchema,
  ),
  connectionsGetRequest: defineRpc(
    'connections.requests.get',
    Type.Object({ requestId: Type.String() }),
    ConnectionRequestStateSchema,
  ),
  connectionsTikTokOptions: defineRpc(
    'connections.tiktok.options',
    Type.Object({ id: Type.String() }),
    TikTokPostingOptionsSchema,
  ),
  connectionsPinterestBoards: defineRpc(
    'connections.pinterest.boards',
    Type.Object({ id: Type.String() }),
    PinterestBoardsSchema,
  ),
  /** A profile's publishing health; platform reads that fail are reported in it, never thrown. */
  connectionsHealth: defineRpc(
    'connections.profiles.health',
    Type.Object({ id: Type.String() }),
    ConnectionHealthSchema,
  ),
  connectionsGetCredentials: defineRpc(
    'connections.credentials.get',
    Type.Object({ profileId: Type.String(), accountId: Type.String() }),
    CredentialsSchema,
    { anonymous: true },
  ),
  /**
   * The publisher asks for fresh credentials after the platform refused an expired token. A transient
   * failure answers service_unavailable (the profile stays active); a definitive refusal answers the
   * credentials with status needs_reconnect.
   */
  connectionsRefreshCredentials: defineRpc(
    'connections.credentials.refresh',
    Type.Object({ profileId: Type.String(), accountId: Type.String() }),
    CredentialsSchema,
    { anonymous: true },
  ),
  connectionsSeedProfile: defineRpc(
    'connections.profiles.seed',
    Type.Object({
      accountId: Type.String(),
      platform: Type.String(),
      platformUserId: Type.String(),
      handle: Type.String(),
      accessToken: Type.String(),
      profileUrl: Type.Optional(Type.String()),
    }),
    ProfileSchema,
    { anonymous: true, operator: true },
  ),
  /** Operator: re-encrypts every stored token under the current TOKEN_KEY_ID. */
  connectionsRotateTokenKey: defineRpc(
    'connections.vault.rotate',
    Type.Object({
      keyId: Type.Optional(
        Type.String({ description: 'Refuse unless the answering replica encrypts with this key id.' }),
      ),
    }),
    Type.Object({ keyId: Type.String(), rotated: Type.Integer(), alreadyCurrent: Type.Integer() }),
    { anonymous: true, operator: true },
  ),
};
