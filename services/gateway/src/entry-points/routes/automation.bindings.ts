import type { Request } from 'express';
import { Routes } from '@postbus/contracts';
import type { RouteBinding } from './binding';
import { queryValue } from './query-values';

/** `?dryRun=true|false`; any other value reaches validation as is and is refused there. */
function dryRun(req: Request): unknown {
  const v = queryValue(req.query.dryRun);
  return v === 'true' ? true : v === 'false' || v === undefined ? false : v;
}

/** ?limit=&cursor=&outcome=&profileId=&commentId= as the RPC expects them; a limit that is not a number is refused by the contract. */
function activityQuery(req: Request): Record<string, unknown> {
  const q: Record<string, unknown> = {};
  const limit = queryValue(req.query.limit);
  if (limit !== undefined) q.limit = /^\d{1,6}$/.test(limit) ? Number(limit) : limit;
  for (const name of ['cursor', 'outcome', 'profileId', 'commentId']) {
    const value = queryValue(req.query[name]);
    if (value !== undefined) q[name] = value;
  }
  return q;
}

export const automationBindings: RouteBinding[] = [
  { route: Routes.exportAutomationTemplate, input: () => ({}) },
  { route: Routes.importAutomationTemplate, input: (req) => ({ template: req.body ?? null, dryRun: dryRun(req) }) },
  { route: Routes.listAutomationActivity, input: activityQuery },
];
