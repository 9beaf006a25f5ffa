import { Rpc, systemPrincipal } from '@postbus/contracts';
import { databaseOf, keyRingOf, runMain, type Database } from '@postbus/kit';
import { bootService, type ServiceRuntime } from '@postbus/service';
import { readConfig, type WebhooksConfig } from './config';
import { DeliveryRepository } from './deliveries/delivery.repository';
import { consumeEvents } from './entry-points/consumers';
import { registerOperatorRpc } from './entry-points/operator-rpc';
import { registerRpc } from './entry-points/rpc';
import { EndpointRepository } from './endpoints/endpoint.repository';
import { sealClearSecrets } from './endpoints/reseal-secrets.use-case';
import { targetGuard } from './endpoints/target-guard';
import { WebhookSecretBox } from './endpoints/webhook-secret-box';
import { migrations } from './migrations';
import { attemptDelivery } from './sending/attempt-delivery.use-case';
import { DeliveryLoop } from './sending/delivery-loop';
import { meteredSend } from './sending/metered-send';
import { webhookSender } from './sending/send-webhook';

export async function start(env?: Record<string, string | undefined>) {
  const config = readConfig(env);
  const svc = await bootService({ name: 'webhooks', config, schema: 'webhooks', migrations });
  const ds = svc.ds!;
  const db = databaseOf(ds);
  const secrets = secretBoxOf(config);
  const endpoints = new EndpointRepository(ds, secrets);
  const deliveries = new DeliveryRepository(ds);
  const clock = () => new Date();
  const loop = deliveryLoop(svc, config, { db, endpoints, deliveries, clock, secrets });
  const announce = () => loop.kick();

  registerRpc(svc.rpc, {
    db,
    endpoints,
    deliveries,
    clock,
    announce,
    checkTarget: targetGuard({ allowLoopback: config.WEBHOOKS_ALLOW_LOOPBACK }),
  });
  registerOperatorRpc(svc.rpc, { db, endpoints, secrets });
  const events = consumeEvents(svc.bus, {
    db,
    endpoints,
    deliveries,
    clock,
    announce,
    // Reads a post the way its own account would (GET /api/v1/posts/{id}).
    getPost: (accountId, postId) =>
      svc.bus.rpc.call(
        Rpc.postsGet,
        { id: postId },
        systemPrincipal({ service: 'webhooks', accountId, scopes: ['post:read'] }),
      ),
    logger: svc.logger.child({ module: 'fan-out' }),
  });

  // Before anything signs: earlier versions kept secrets in clear, and readers refuse them.
  await sealClearSecrets({ db, endpoints, secrets }, svc.logger.child({ module: 'secrets' }));
  await svc.rpc.start();
  await events.start();
  loop.start();
  svc.lifecycle.onStop('delivery loop', () => loop.stop());
  svc.lifecycle.onStop('events', () => events.stop());
  svc.logger.info('webhooks started', {
    retries: config.WEBHOOK_RETRY_SCHEDULE_MS.length,
    allowLoopback: config.WEBHOOKS_ALLOW_LOOPBACK,
  });
  return svc;
}

function secretBoxOf(config: WebhooksConfig): WebhookSecretBox {
  return new WebhookSecretBox(
    keyRingOf({
      key: config.WEBHOOK_SECRET_ENCRYPTION_KEY,
      keyId: config.WEBHOOK_SECRET_KEY_ID,
      previous: config.WEBHOOK_SECRET_PREVIOUS_KEYS,
    }),
  );
}

/** Claims due deliveries and attempts them with the configured retry policy, timeout and concurrency. */
function deliveryLoop(
  svc: ServiceRuntime,
  config: WebhooksConfig,
  stores: {
    db: Database;
    endpoints: EndpointRepository;
    deliveries: DeliveryRepository;
    clock: () => Date;
    secrets: WebhookSecretBox;
  },
): DeliveryLoop {
  const policy = {
    retryScheduleMs: config.WEBHOOK_RETRY_SCHEDULE_MS,
    disableAfterMs: config.WEBHOOK_DISABLE_AFTER_HOURS * 3600_000,
  };
  const attemptPorts = {
    ...stores,
    policy,
    send: meteredSend(
      webhookSender({ allowLoopback: config.WEBHOOKS_ALLOW_LOOPBACK, timeoutMs: config.WEBHOOK_TIMEOUT_MS }),
      svc.metrics,
    ),
    logger: svc.logger.child({ module: 'delivery' }),
    observe: (outcome: 'delivered' | 'failed', seconds: number) => svc.metrics.webhookDelivered(outcome, seconds),
  };
  return new DeliveryLoop({
    deliveries: stores.deliveries,
    endpoints: stores.endpoints,
    attempt: (claimed, endpoint) => attemptDelivery(attemptPorts, claimed, endpoint),
    clock: stores.clock,
    logger: attemptPorts.logger,
    pollMs: config.WEBHOOK_POLL_MS,
    concurrency: config.WEBHOOK_CONCURRENCY,
    leaseMs: config.WEBHOOK_TIMEOUT_MS + 60_000,
  });
}

if (require.main === module) runMain(start);
