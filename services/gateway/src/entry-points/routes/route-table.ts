import { accountBindings } from './account.bindings';
import { automationBindings } from './automation.bindings';
import type { RouteBinding } from './binding';
import { calendarBindings } from './calendar.bindings';
import { connectionBindings } from './connections.bindings';
import { mediaBindings } from './media.bindings';
import { postBindings } from './posts.bindings';
import { postBulkBindings } from './posts-bulk.bindings';
import { scheduleBindings } from './schedules.bindings';
import { webhookBindings } from './webhooks.bindings';

export * from './binding';

/** Every JSON route the gateway serves over RPC. Each domain keeps its own bindings file. */
export const bindings: RouteBinding[] = [
  ...postBulkBindings,
  ...postBindings,
  ...scheduleBindings,
  ...calendarBindings,
  ...mediaBindings,
  ...connectionBindings,
  ...webhookBindings,
  ...automationBindings,
  ...accountBindings,
];
