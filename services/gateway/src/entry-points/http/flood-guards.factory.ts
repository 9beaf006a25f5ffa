import type { Logger } from '@postbus/kit';
import type { GatewayConfig } from '../../config';
import type { FloodGuards } from './flood-guards';
import type { PgRateLimitStore } from './rate-limit.repository';
import { BucketLimiter, type Bucket } from './rate-limit-buckets';
import { LeasingRateLimitStore } from './rate-limit-leases';

/**
 * The three buckets over the one shared table. Busy buckets (credentials, addresses) lease their
 * counts; attempts are counted one by one, exact at a limit of a few dozen.
 */
export function floodGuards(store: PgRateLimitStore, config: GatewayConfig, logger: Logger): FloodGuards {
  const inWindow = (bucket: Bucket) => ({ hit: (key: string, n = 1) => store.hit(key, n, bucket.windowMs) });
  const leased = (bucket: Bucket) =>
    new BucketLimiter(bucket, new LeasingRateLimitStore(inWindow(bucket), bucket.limit));
  const credential: Bucket = { name: 'credential', limit: config.RATE_LIMIT_PER_MINUTE, windowMs: 60_000 };
  const address: Bucket = { name: 'ip', limit: config.RATE_LIMIT_PER_IP_PER_MINUTE, windowMs: 60_000 };
  const attempts: Bucket = {
    name: 'attempts',
    limit: config.RATE_LIMIT_ATTEMPTS_PER_IP,
    windowMs: config.RATE_LIMIT_ATTEMPTS_WINDOW_SECONDS * 1000,
  };
  return {
    credential: leased(credential),
    address: leased(address),
    attempts: new BucketLimiter(attempts, inWindow(attempts)),
    logger,
  };
}
