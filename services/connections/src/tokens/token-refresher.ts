import { PeriodicLoop, type Logger } from '@postbus/kit';
import type { ProfileRow } from '../profiles/profile.repository';
import { MIN_REFRESH_AGE_PLATFORMS, MIN_REFRESH_AGE_SECONDS, refreshableFrom } from './refresh-age';
import { refreshProfileToken, type RefreshPorts } from './refresh-credentials.use-case';

/**
 * Whether a token has less than `aheadSeconds` left, or less than a fifth of its lifetime, and is
 * old enough for its platform to accept a refresh (Instagram and Threads: 24 hours).
 */
export function isRefreshDue(
  row: Pick<ProfileRow, 'platform' | 'token_expires_at' | 'token_refreshed_at' | 'connected_at'>,
  now: Date,
  aheadSeconds: number,
): boolean {
  const next = nextRefreshAt(row, aheadSeconds);
  return next !== null && next.getTime() <= now.getTime();
}

/** When the refresher will renew the token: null when it does not expire. */
export function nextRefreshAt(
  row: Pick<ProfileRow, 'platform' | 'token_expires_at' | 'token_refreshed_at' | 'connected_at'>,
  aheadSeconds: number,
): Date | null {
  if (!row.token_expires_at) return null;
  const expires = new Date(row.token_expires_at).getTime();
  const issued = new Date(row.token_refreshed_at ?? row.connected_at);
  const due = expires - Math.max(aheadSeconds * 1000, (expires - issued.getTime()) / 5);
  return new Date(Math.max(due, refreshableFrom(row.platform, issued).getTime()));
}

/**
 * Every `intervalMs`, refreshes the tokens of active profiles that are close to expiry. Several
 * replicas may run it: a profile being refreshed elsewhere is skipped. Failures are logged and
 * tried again at the next run; only a definitive refusal changes the profile (needs_reconnect).
 */
export class TokenRefresher {
  private readonly loop: PeriodicLoop;

  constructor(
    private readonly ports: RefreshPorts,
    private readonly logger: Logger,
    private readonly opts: { intervalMs: number; aheadSeconds: number; batch?: number },
  ) {
    this.loop = new PeriodicLoop(() => this.runOnce(), { everyMs: opts.intervalMs });
  }

  start(): void {
    this.loop.start();
  }

  /** One pass; answers how many tokens were refreshed. */
  async runOnce(): Promise<number> {
    let refreshed = 0;
    try {
      const due = await this.ports.profiles.dueForRefresh(this.opts.aheadSeconds, this.opts.batch ?? 100, {
        platforms: MIN_REFRESH_AGE_PLATFORMS,
        seconds: MIN_REFRESH_AGE_SECONDS,
      });
      for (const { id } of due) {
        if (this.loop.stopping) break;
        const before = Date.now();
        try {
          const row = await refreshProfileToken(this.ports, { profileId: id, accountId: null }, 'ahead', (r) =>
            isRefreshDue(r, this.ports.clock(), this.opts.aheadSeconds),
          );
          if (row?.token_refreshed_at && new Date(row.token_refreshed_at).getTime() >= before - 1000) refreshed++;
        } catch (err) {
          this.logger.warn('token refresh failed; tried again at the next run', {
            profileId: id,
            err: (err as Error).message,
          });
        }
      }
    } catch (err) {
      this.logger.warn('token refresh run failed', { err: (err as Error).message });
    }
    return refreshed;
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
