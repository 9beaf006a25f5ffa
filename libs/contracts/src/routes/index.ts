import { AccountRoutes } from './account';
import { AutomationRoutes } from './automation';
import { CalendarRoutes } from './calendar';
import { ConnectionRoutes } from './connections';
import { MediaRoutes } from './media';
import { PostRoutes } from './posts';
import { ScheduleRoutes } from './schedules';
import { WebhookRoutes } from './webhooks';

export * from './define';
export * from './posts';
export * from './schedules';
export * from './calendar';
export * from './media';
export * from './connections';
export * from './webhooks';
export * from './automation';
export * from './account';

/** Every REST route of the gateway. Each domain keeps its own file. */
export const Routes = {
  ...PostRoutes,
  ...ScheduleRoutes,
  ...CalendarRoutes,
  ...MediaRoutes,
  ...ConnectionRoutes,
  ...WebhookRoutes,
  ...AutomationRoutes,
  ...AccountRoutes,
};
