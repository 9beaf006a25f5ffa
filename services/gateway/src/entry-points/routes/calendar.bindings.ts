import { Routes } from '@postbus/contracts';
import type { RouteBinding } from './binding';

const FIELDS = ['from', 'to', 'timezone', 'profileId'] as const;

/** Query values go on as given (a repeated one as a list) and posts refuses what is not a single valid value. */
export const calendarBindings: RouteBinding[] = [
  {
    route: Routes.getCalendar,
    input: (req) => Object.fromEntries(FIELDS.filter((f) => req.query[f] !== undefined).map((f) => [f, req.query[f]])),
  },
];
