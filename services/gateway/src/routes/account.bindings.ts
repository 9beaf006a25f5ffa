import type { Request } from 'express';
import { Routes } from '@postbus/contracts';
import type { RouteBinding } from './binding';

const one = (v: unknown): string | undefined => (v === undefined ? undefined : Array.isArray(v) ? String(v[0]) : String(v));

/** ?from=&to=&groupBy= as sent; posts answers a bad value with validation_error naming it. */
function analyticsQuery(req: Request): Record<string, string> {
  const q: Record<string, string> = {};
  for (const name of ['from', 'to', 'groupBy']) {
    const value = one(req.query[name]);
    if (value !== undefined) q[name] = value;
  }
  return q;
}

export const accountBindings: RouteBinding[] = [
  { route: Routes.getAccountSummary, input: () => ({}) },
  { route: Routes.getBillingSummary, input: () => ({}) },
  { route: Routes.getAnalytics, input: analyticsQuery },
];
