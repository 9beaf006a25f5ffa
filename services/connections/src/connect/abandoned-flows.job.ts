import type { Logger } from '@postbus/kit';
import { AUTHORIZATION_WINDOW_MS } from './authorization-window';
import type { ConnectionRequestRepository } from './connection-request.repository';

/**
 * Every `intervalMs`, erases the sealed PKCE verifiers and grants of sign-ins that were started
 * but never finished within the authorization window: nothing secret outlives its use.
 */
export function startAbandonedFlowsJob(requests: ConnectionRequestRepository, clock: () => Date, logger: Logger, intervalMs: number): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = requests
      .eraseAbandonedSecrets(new Date(clock().getTime() - AUTHORIZATION_WINDOW_MS))
      .catch((err: Error) => logger.warn('erasing abandoned sign-ins failed', { err: err.message }))
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
