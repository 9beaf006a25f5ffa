/**
 * Jest's globalSetup, once per run before any test file: gives each service its own RabbitMQ
 * user on the test broker (AMQP_URL), as startSystem runs them. Idempotent, and the same
 * passwords on every run, so runs side by side on one broker agree.
 */
import { provisionBrokerUsers } from '@postbus/bus/src/provision-broker-users';
import { testServers } from './config';

export default async function provisionTestBroker(): Promise<void> {
  await provisionBrokerUsers(testServers.amqpUrl);
}
