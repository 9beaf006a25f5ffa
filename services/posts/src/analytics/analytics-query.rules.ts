import {
  AppError,
  ANALYTICS_DEFAULT_DAYS,
  ANALYTICS_GROUPS,
  ANALYTICS_MAX_DAYS,
  type AnalyticsGroup,
  type AnalyticsQuery,
} from '@postbus/contracts';
import { parseTimestamp } from '../posts/post-payload.rules';

const DAY_MS = 86_400_000;

export interface AnalyticsRange {
  from: Date;
  to: Date;
  groupBy: AnalyticsGroup | null;
}

/** The range and grouping asked for: `to` defaults to now, `from` to 30 days before `to`; at most 366 days. */
export function parseAnalyticsQuery(q: AnalyticsQuery, now: Date): AnalyticsRange {
  const to = q.to === undefined ? now : timestamp('to', q.to);
  const from =
    q.from === undefined ? new Date(to.getTime() - ANALYTICS_DEFAULT_DAYS * DAY_MS) : timestamp('from', q.from);
  if (from >= to) throw new AppError('validation_error', 'from must be before to.');
  if (to.getTime() - from.getTime() > ANALYTICS_MAX_DAYS * DAY_MS)
    throw new AppError(
      'validation_error',
      `The range may span at most ${ANALYTICS_MAX_DAYS} days; ask for several ranges.`,
    );
  if (q.groupBy !== undefined && !(ANALYTICS_GROUPS as readonly string[]).includes(q.groupBy)) {
    throw new AppError('validation_error', `groupBy must be one of ${ANALYTICS_GROUPS.join(', ')}.`);
  }
  return { from, to, groupBy: (q.groupBy as AnalyticsGroup | undefined) ?? null };
}

function timestamp(name: string, value: string): Date {
  const at = parseTimestamp(value);
  if (!at)
    throw new AppError(
      'validation_error',
      `${name} must be an ISO 8601 datetime with Z or an offset, e.g. 2026-12-01T09:30:00Z.`,
    );
  return at;
}
