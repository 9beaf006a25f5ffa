import { openBus, type Bus } from '@postbus/bus';
import { createLogger } from '@postbus/kit';
import type { TestEnv } from './test-env';

/** A bus client in the test env's namespace, to call services and watch events as an operator would; its queues expire once unused. */
export function openTestBus(env: TestEnv, opts: { rpcTimeoutMs?: number } = {}): Promise<Bus> {
  return openBus({
    url: env.amqpUrl,
    namespace: env.namespace,
    logger: createLogger('test', 'silent'),
    rpcTimeoutMs: opts.rpcTimeoutMs ?? 5000,
    ephemeral: true,
  });
}
