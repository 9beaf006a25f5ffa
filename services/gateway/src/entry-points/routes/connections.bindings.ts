import { Routes, Rpc, toProfileList, type RpcOutput } from '@postbus/contracts';
import type { RouteBinding } from './binding';

export const connectionBindings: RouteBinding[] = [
  { route: Routes.listConnections, input: () => ({}) },
  {
    route: Routes.listProfiles,
    input: () => ({}),
    reply: (data: RpcOutput<typeof Rpc.connectionsListAccounts>) => ({ status: 200, body: toProfileList(data) }),
  },
  {
    route: Routes.createConnection,
    input: (req) => ({ platform: (req.body as { platform?: unknown } | undefined)?.platform }),
  },
  { route: Routes.getConnectionRequest, input: (req) => ({ requestId: req.params.requestId }) },
  { route: Routes.deleteConnection, input: (req) => ({ id: req.params.id }) },
  { route: Routes.getTikTokPostingOptions, input: (req) => ({ id: req.params.id }) },
  { route: Routes.getPinterestBoards, input: (req) => ({ id: req.params.id }) },
  { route: Routes.getConnectionHealth, input: (req) => ({ id: req.params.id }) },
];
