import { PeriodicLoop, type Logger } from '@postbus/kit';
import { AUTHORIZATION_WINDOW_MS } from './authorization-window';
import type { ConnectionRequestRepository } from './connection-request.repository';

/**
 * Every `intervalMs`, erases the sealed PKCE verifiers and grants of sign-ins that were started
 * but never finished within the authorization window: nothing secret outlives its use.
 */
export function startAbandonedFlowsJob(
  requests: ConnectionRequestRepository,
  clock: () => Date,
  logger: Logger,
  intervalMs: number,
): { stop(): Promise<void> } {
  return new PeriodicLoop(() => requests.eraseAbandonedSecrets(new Date(clock().getTime() - AUTHORIZATION_WINDOW_MS)), {
    everyMs: intervalMs,
    unref: true,
    onError: (err) => logger.warn('erasing abandoned sign-ins failed', { err: err.message }),
  }).start();
}
