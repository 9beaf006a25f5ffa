import { Routes } from '@postbus/contracts';
import type { RouteBinding } from './binding';
import { queryInteger, queryValue } from './query-values';

export const scheduleBindings: RouteBinding[] = [
  {
    route: Routes.createSchedule,
    input: (req) => ({ body: req.body ?? null, idempotencyKey: req.header('idempotency-key') || undefined }),
  },
  { route: Routes.listSchedules, input: () => ({}) },
  {
    route: Routes.suggestScheduleSlots,
    input: (req) =>
      Object.fromEntries(
        Object.entries({
          profileId: queryValue(req.query.profileId),
          timezone: queryValue(req.query.timezone),
          count: queryInteger(req.query.count),
        }).filter(([, v]) => v !== undefined),
      ),
  },
  { route: Routes.getSchedule, input: (req) => ({ id: req.params.id }) },
  { route: Routes.updateSchedule, input: (req) => ({ id: req.params.id, patch: req.body ?? null }) },
  { route: Routes.deleteSchedule, input: (req) => ({ id: req.params.id }) },
  { route: Routes.getSeries, input: (req) => ({ id: req.params.id }) },
  { route: Routes.updateSeries, input: (req) => ({ id: req.params.id, patch: req.body ?? null }) },
  { route: Routes.cancelSeries, input: (req) => ({ id: req.params.id }) },
  {
    route: Routes.previewScheduleSlots,
    input: (req) =>
      Object.fromEntries(
        Object.entries({
          id: req.params.id,
          from: queryValue(req.query.from),
          count: queryInteger(req.query.count),
        }).filter(([, v]) => v !== undefined),
      ),
  },
];
