import { AuthRpc } from './auth';
import { AutomationRpc } from './automation';
import { CalendarRpc } from './calendar';
import { ConnectionsRpc } from './connections';
import { ConnectionsLookupRpc } from './connections-lookup';
import { MediaRpc } from './media';
import { PostsRpc } from './posts';
import { SchedulesRpc } from './schedules';
import { SummariesRpc } from './summaries';
import { WebhooksRpc } from './webhooks';

export * from './define';
export * from './auth';
export * from './connections';
export * from './media';
export * from './posts';
export * from './schedules';
export * from './calendar';
export * from './webhooks';
export * from './automation';
export * from './connections-lookup';
export * from './summaries';

/** Every RPC of the system, by name. Each domain keeps its own file. */
export const Rpc = {
  ...AuthRpc,
  ...PostsRpc,
  ...SchedulesRpc,
  ...CalendarRpc,
  ...ConnectionsRpc,
  ...MediaRpc,
  ...WebhooksRpc,
  ...AutomationRpc,
  ...ConnectionsLookupRpc,
  ...SummariesRpc,
};
