import type { Request } from 'express';
import { Routes } from '@postbus/contracts';
import type { RouteBinding } from './binding';
import { queryValue } from './query-values';

/** ?from=&to=&groupBy= as sent; posts answers a bad value with validation_error naming it. */
function analyticsQuery(req: Request): Record<string, string> {
  const q: Record<string, string> = {};
  for (const name of ['from', 'to', 'groupBy']) {
    const value = queryValue(req.query[name]);
    if (value !== undefined) q[name] = value;
  }
  return q;
}

export const accountBindings: RouteBinding[] = [
  { route: Routes.getAccountSummary, input: () => ({}) },
  { route: Routes.getBillingSummary, input: () => ({}) },
  { route: Routes.getAnalytics, input: analyticsQuery },
];
