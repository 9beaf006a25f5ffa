import type { ServiceMetrics } from '@postbus/service';
import type { SendWebhook } from './send-webhook';

/** The same sender, each delivery attempt timed and counted as delivered or failed. */
export function meteredSend(send: SendWebhook, metrics: ServiceMetrics): SendWebhook {
  return async (req) => {
    const started = process.hrtime.bigint();
    const result = await send(req);
    metrics.webhookDelivered(result.error ? 'failed' : 'delivered', Number(process.hrtime.bigint() - started) / 1e9);
    return result;
  };
}
