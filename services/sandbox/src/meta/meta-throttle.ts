import type { Platform } from '@postbus/contracts';
import { GraphError } from './graph-error';

export const META_PLATFORMS = ['facebook', 'instagram', 'threads'] as const;
export type MetaPlatform = (typeof META_PLATFORMS)[number];

export function isMetaPlatform(platform: Platform): platform is MetaPlatform {
  return (META_PLATFORMS as readonly string[]).includes(platform);
}

/**
 * One Meta API's call budgets. Graph counts calls over a rolling hour, Threads over 24 hours
 * (https://developers.facebook.com/docs/graph-api/overview/rate-limiting/, https://developers.facebook.com/docs/threads/overview):
 * once a budget is spent every call is refused until enough calls have left the window.
 */
export interface MetaThrottleRule {
  /** The rolling window the budgets count over; a test shortens it to see a throttle lift. */
  windowMs: number;
  /** Calls the app may make per window, all users together; beyond: code 4 with X-App-Usage. null: appCallsPerUser decides. */
  appCalls: number | null;
  /** The app's budget per sandbox user of the platform (at least one user counted) when appCalls is null; null: no app budget. */
  appCallsPerUser: number | null;
  /**
   * Calls one account may make per window; beyond: Facebook code 32 (Page) and Instagram code 80002
   * (business use case) with X-Business-Use-Case-Usage, Threads code 17 (user) with X-App-Usage. null: unlimited.
   */
  accountCalls: number | null;
}

export type MetaThrottleRules = Record<MetaPlatform, MetaThrottleRule>;

/**
 * Meta's budgets for an app whose users have modest reach. Graph's Platform Rate Limit is
 * 200 calls per app user per rolling hour, but "if both Platform and Business Use Case rate limits can be
 * applied to a request, BUC rate limits will be applied" (https://developers.facebook.com/docs/graph-api/overview/rate-limiting/):
 * Instagram Platform calls and Page-token calls (every call the sandbox serves) count per account only,
 * so the app budget (appCallsPerUser: Meta's 200) is off by default and a test switches it on.
 */
export const DEFAULT_META_THROTTLE: MetaThrottleRules = {
  // Pages with a Page token: BUC, 4800 × engaged users per 24 h (graph-api/overview/rate-limiting): an account of 24 engaged users a day, counted per hour
  facebook: { windowMs: 3_600_000, appCalls: null, appCallsPerUser: null, accountCalls: 4800 },
  // Instagram Platform: BUC, 4800 × impressions per 24 h (graph-api/overview/rate-limiting): an account of 24 impressions a day, counted per hour
  instagram: { windowMs: 3_600_000, appCalls: null, appCallsPerUser: null, accountCalls: 4800 },
  // Threads: 4800 × impressions per app-user pair per rolling 24 h, impressions at least 10 (https://developers.facebook.com/docs/threads/overview)
  threads: { windowMs: 86_400_000, appCalls: null, appCallsPerUser: null, accountCalls: 48_000 },
};

/** What an account-level throttle answers on each platform. */
const ACCOUNT_ANSWERS: Record<MetaPlatform, { code: number; message: string; bucType: string | null }> = {
  facebook: { code: 32, message: '(#32) Page request limit reached', bucType: 'pages' },
  instagram: {
    code: 80002,
    message: '(#80002) There have been too many calls to this Instagram account. Wait a bit and try again.',
    bucType: 'instagram',
  },
  threads: { code: 17, message: '(#17) User request limit reached', bucType: null },
};

/** The calls each app and account made within its window, and the rules they are held to. */
export class MetaThrottleStore {
  private rules: MetaThrottleRules;
  private readonly initial: MetaThrottleRules;
  private readonly calls = new Map<string, number[]>();

  constructor(overrides: Partial<Record<MetaPlatform, Partial<MetaThrottleRule>>> = {}) {
    this.initial = Object.fromEntries(
      META_PLATFORMS.map((p) => [p, { ...DEFAULT_META_THROTTLE[p], ...overrides[p] }]),
    ) as MetaThrottleRules;
    this.rules = structuredClone(this.initial);
  }

  rule(platform: MetaPlatform): MetaThrottleRule {
    return { ...this.rules[platform] };
  }

  set(platform: MetaPlatform, rule: Partial<MetaThrottleRule>): MetaThrottleRule {
    this.rules[platform] = { ...this.rules[platform], ...rule };
    return this.rule(platform);
  }

  /** Counts one call of `account` on `platform` (whose app has `appUsers` users), or answers the error Meta sends once a budget is spent (the refused call is not counted). */
  admit(platform: MetaPlatform, account: string, now: number, appUsers: number): GraphError | null {
    const rule = this.rules[platform];
    const appCalls = appBudget(rule, appUsers);
    if (appCalls === null && rule.accountCalls === null) return null;
    const app = this.recent(`${platform}:app`, rule.windowMs, now);
    const own = this.recent(`${platform}:${account}`, rule.windowMs, now);
    if (appCalls !== null && app.length >= appCalls) return appThrottled(usagePct(app, appCalls));
    if (rule.accountCalls !== null && own.length >= rule.accountCalls) {
      return accountThrottled(
        platform,
        account,
        usagePct(own, rule.accountCalls),
        regainMs(own, rule.accountCalls, rule.windowMs, now),
      );
    }
    app.push(now);
    own.push(now);
    return null;
  }

  reset(): void {
    this.rules = structuredClone(this.initial);
    this.calls.clear();
  }

  /** The key's calls still inside the window, oldest first (older ones are dropped). */
  private recent(key: string, windowMs: number, now: number): number[] {
    const kept = (this.calls.get(key) ?? []).filter((t) => t > now - windowMs);
    this.calls.set(key, kept);
    return kept;
  }
}

/** The app's budget: a fixed appCalls, else appCallsPerUser for each of the platform's users (one at least). */
function appBudget(rule: MetaThrottleRule, appUsers: number): number | null {
  if (rule.appCalls !== null) return rule.appCalls;
  return rule.appCallsPerUser === null ? null : rule.appCallsPerUser * Math.max(1, appUsers);
}

function usagePct(calls: number[], budget: number): number {
  return Math.round((100 * calls.length) / budget);
}

/** Until the call that must leave the window for the count to drop under the budget has left it. */
function regainMs(calls: number[], budget: number, windowMs: number, now: number): number {
  return Math.max(0, calls[calls.length - budget] + windowMs - now);
}

/** Code 4 with `X-App-Usage` percentages (https://developers.facebook.com/docs/graph-api/overview/rate-limiting/). */
function appThrottled(pct: number): GraphError {
  return new GraphError(400, 4, '(#4) Application request limit reached', {
    isTransient: true,
    headers: {
      'x-app-usage': JSON.stringify({
        call_count: pct,
        total_cputime: Math.round(pct / 4),
        total_time: Math.round(pct / 3),
      }),
    },
  });
}

/** The account's code with `X-Business-Use-Case-Usage` and `estimated_time_to_regain_access` in minutes, or X-App-Usage for a Threads user. */
function accountThrottled(platform: MetaPlatform, account: string, pct: number, waitMs: number): GraphError {
  const answer = ACCOUNT_ANSWERS[platform];
  const usage = { call_count: pct, total_cputime: Math.round(pct / 4), total_time: Math.round(pct / 3) };
  const headers: Record<string, string> = answer.bucType
    ? {
        'x-business-use-case-usage': JSON.stringify({
          [account]: [{ type: answer.bucType, ...usage, estimated_time_to_regain_access: Math.ceil(waitMs / 60_000) }],
        }),
      }
    : { 'x-app-usage': JSON.stringify(usage) };
  return new GraphError(400, answer.code, answer.message, { isTransient: true, headers });
}
