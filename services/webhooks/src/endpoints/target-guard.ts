import { AppError } from '@postbus/contracts';
import { isNetError, pinTarget, type TargetPolicy } from '@postbus/net';

/**
 * The SSRF guard at the door: a webhook URL must be http(s), carry no credentials, and resolve to
 * a public address (loopback too when allowed for tests and development). Delivery judges it again.
 */
export function targetGuard(policy: TargetPolicy) {
  return async (url: string): Promise<void> => {
    try {
      await pinTarget(url, policy);
    } catch (err) {
      if (isNetError(err)) throw new AppError('validation_error', `url: ${err.message}.`);
      throw err;
    }
  };
}
