import { Type } from '@sinclair/typebox';
import { PLATFORMS } from '../platforms';
import { Rpc } from '../rpc';
import {
  ConnectedAccountListSchema,
  ConnectedAccountSchema,
  ConnectionRequestSchema,
  ConnectionHealthSchema,
  ConnectionRequestStateSchema,
  TikTokPostingOptionsSchema,
  type ConnectedAccount,
} from '../rpc/connections';
import { PinterestBoardsSchema } from '../pinterest';
import type { RouteDef } from './define';

const ProfileBriefSchema = Type.Object({
  id: Type.String({ description: 'Use it in profileIds.' }),
  platform: Type.String(),
  handle: Type.String(),
  status: Type.String(),
});
export const ProfileListSchema = Type.Object({ profiles: Type.Array(ProfileBriefSchema), count: Type.Integer() });

/** svc_list_profiles and GET /api/v1/profiles: the connected accounts, as profile ids to post to. */
export function toProfileList(data: { accounts: ConnectedAccount[]; count: number }) {
  return {
    profiles: data.accounts.map(({ id, platform, handle, status }) => ({ id, platform, handle, status })),
    count: data.count,
  };
}

const NoArguments = Type.Object({}, { additionalProperties: false });

export const ConnectionRoutes = {
  listConnections: {
    id: 'listConnections',
    method: 'get',
    path: '/api/v1/connections',
    scope: 'account:read',
    summary: 'List the connected social accounts visible to the key; their ids are used as profileIds.',
    rpc: Rpc.connectionsListAccounts,
    response: ConnectedAccountListSchema,
    status: 200,
    tool: {
      name: 'svc_list_connected_social_accounts',
      title: 'Connected social accounts',
      description:
        'List the connected social accounts (Instagram, TikTok, YouTube, Threads, Facebook) this credential may post to: id (a profileId), platform, handle, profile URL, token expiry and status.',
      input: NoArguments,
      toRpc: () => ({}),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      oauthScope: 'mcp:read',
    },
  },
  listProfiles: {
    id: 'listProfiles',
    method: 'get',
    path: '/api/v1/profiles',
    scope: 'account:read',
    summary: 'The connected accounts in brief: profile ids with platform, handle and status.',
    rpc: Rpc.connectionsListAccounts,
    response: ProfileListSchema,
    status: 200,
    tool: {
      name: 'svc_list_profiles',
      title: 'List profiles',
      description:
        'List the profile ids this credential may post to, with platform, handle and status; pass them as profileIds to svc_schedule_post.',
      input: NoArguments,
      toRpc: () => ({}),
      fromRpc: toProfileList,
      output: ProfileListSchema,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      oauthScope: 'mcp:read',
    },
  },
  createConnection: {
    id: 'createConnection',
    method: 'post',
    path: '/api/v1/connections',
    scope: 'account:write',
    summary:
      'Create a connection request: a single-use, short-lived connectUrl that a person opens in a browser to connect a profile.',
    rpc: Rpc.connectionsCreateRequest,
    body: Type.Object({ platform: Type.Union(PLATFORMS.map((p) => Type.Literal(p))) }, { additionalProperties: false }),
    response: ConnectionRequestSchema,
    status: 201,
  },
  getConnectionRequest: {
    id: 'getConnectionRequest',
    method: 'get',
    path: '/api/v1/connections/requests/{requestId}',
    scope: 'account:read',
    summary:
      'Where a connection request stands: pending, completed (with profileId), expired or failed (with failureReason).',
    rpc: Rpc.connectionsGetRequest,
    response: ConnectionRequestStateSchema,
    status: 200,
  },
  getTikTokPostingOptions: {
    id: 'getTikTokPostingOptions',
    method: 'get',
    path: '/api/v1/connections/{id}/tiktok/options',
    scope: 'account:read',
    summary:
      "A TikTok profile's posting options (creator_info): privacy levels, interaction switches and maximum video duration.",
    rpc: Rpc.connectionsTikTokOptions,
    response: TikTokPostingOptionsSchema,
    status: 200,
    tool: {
      name: 'svc_get_tiktok_posting_options',
      title: 'TikTok posting options',
      description:
        "Read a TikTok profile's posting options before posting: the privacy levels it allows, whether comments, duets and stitches are disabled, the maximum video duration and the creator nickname to show.",
      input: Type.Object(
        { profileId: Type.String({ description: 'A TikTok profile id from svc_list_profiles' }) },
        { additionalProperties: false },
      ),
      toRpc: (args) => ({ id: args.profileId }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
      oauthScope: 'mcp:read',
    },
  },
  getPinterestBoards: {
    id: 'getPinterestBoards',
    method: 'get',
    path: '/api/v1/connections/{id}/pinterest/boards',
    scope: 'account:read',
    summary: "A Pinterest profile's boards: a pin goes to one of them (platformMeta.pinterest.boardId).",
    rpc: Rpc.connectionsPinterestBoards,
    response: PinterestBoardsSchema,
    status: 200,
    tool: {
      name: 'svc_get_pinterest_boards',
      title: 'Pinterest boards',
      description: "List a Pinterest profile's boards; a pin needs one as platformMeta.pinterest.boardId.",
      input: Type.Object(
        { profileId: Type.String({ description: 'A Pinterest profile id from svc_list_profiles' }) },
        { additionalProperties: false },
      ),
      toRpc: (args) => ({ id: args.profileId }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
      oauthScope: 'mcp:read',
    },
  },
  getConnectionHealth: {
    id: 'getConnectionHealth',
    method: 'get',
    path: '/api/v1/connections/{id}/health',
    scope: 'account:read',
    summary:
      "What a profile still lacks to publish: token expiry and refresh state, granted vs needed scopes, the platform's remaining publishing quota where it tells, and TikTok's audit mode.",
    rpc: Rpc.connectionsHealth,
    response: ConnectionHealthSchema,
    status: 200,
    tool: {
      name: 'svc_get_connection_health',
      title: 'Check a connection',
      description:
        'Check a connected profile before posting: token expiry and refresh state, granted vs needed scopes, remaining publishing quota (Instagram, Threads), TikTok audit mode (unaudited apps post SELF_ONLY to private accounts only), and a list of problems in words.',
      input: Type.Object(
        { profileId: Type.String({ description: 'A profile id from svc_list_profiles' }) },
        { additionalProperties: false },
      ),
      toRpc: (args) => ({ id: args.profileId }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
      oauthScope: 'mcp:read',
    },
  },
  deleteConnection: {
    id: 'deleteConnection',
    method: 'delete',
    path: '/api/v1/connections/{id}',
    scope: 'account:write',
    summary:
      'Disconnect a profile; its scheduled posts fail with a reason and new posts to it are refused. Answers the final state.',
    rpc: Rpc.connectionsDisconnect,
    response: ConnectedAccountSchema,
    status: 200,
  },
} satisfies Record<string, RouteDef>;
