import { Routes } from '@postbus/contracts';
import type { RouteBinding } from './binding';

const one = (v: unknown): string | undefined => (v === undefined ? undefined : Array.isArray(v) ? String(v[0]) : String(v));
/** `count=5` → 5; anything else is passed on as is and refused by posts with validation_error. */
const integer = (v: unknown): unknown => {
  const s = one(v);
  return s !== undefined && /^\d{1,6}$/.test(s) ? Number(s) : s;
};

export const scheduleBindings: RouteBinding[] = [
  { route: Routes.createSchedule, input: (req) => ({ body: req.body ?? null }) },
  { route: Routes.listSchedules, input: () => ({}) },
  { route: Routes.getSchedule, input: (req) => ({ id: req.params.id }) },
  { route: Routes.updateSchedule, input: (req) => ({ id: req.params.id, patch: req.body ?? null }) },
  { route: Routes.deleteSchedule, input: (req) => ({ id: req.params.id }) },
  {
    route: Routes.previewScheduleSlots,
    input: (req) => Object.fromEntries(Object.entries({ id: req.params.id, from: one(req.query.from), count: integer(req.query.count) }).filter(([, v]) => v !== undefined)),
  },
];
