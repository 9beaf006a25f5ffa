import type { Database } from '@postbus/kit';
import type { Logger } from '@postbus/kit';
import {
  disabledReason,
  failedLongEnough,
  nextAttemptAfterFailure,
  type DeliveryPolicy,
} from '../deliveries/delivery-policy';
import type { ClaimedDelivery, DeliveryRepository } from '../deliveries/delivery.repository';
import type { Endpoint, EndpointRepository } from '../endpoints/endpoint.repository';
import type { WebhookSecretBox } from '../endpoints/webhook-secret-box';
import type { SendWebhook } from './send-webhook';
import { signWebhook } from './webhook-signature';

export interface AttemptPorts {
  db: Database;
  endpoints: EndpointRepository;
  deliveries: DeliveryRepository;
  send: SendWebhook;
  secrets: WebhookSecretBox;
  policy: DeliveryPolicy;
  clock: () => Date;
  logger: Logger;
  /** Counts the attempt for the operators' dashboards. */
  observe(outcome: 'delivered' | 'failed', seconds: number): void;
}

/** The secrets that sign now, opened: the current one, and the previous one while its 24 hours last. */
export function signingSecrets(secrets: WebhookSecretBox, endpoint: Endpoint, now: Date): string[] {
  const current = secrets.open(endpoint.id, 'secret', endpoint.sealedSecret);
  const previous =
    endpoint.sealedPreviousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now
      ? [secrets.open(endpoint.id, 'previous_secret', endpoint.sealedPreviousSecret)]
      : [];
  return [current, ...previous];
}

/**
 * One attempt of a leased delivery: signed with a fresh timestamp, sent, and recorded with the
 * delivery's next state and the endpoint's run of failures in one transaction. A run of failures
 * as long as the policy allows disables the endpoint and cancels what it still had pending.
 */
export async function attemptDelivery(
  ports: AttemptPorts,
  claimed: ClaimedDelivery,
  endpoint: Endpoint | undefined,
): Promise<{ nextAttemptAt: Date | null }> {
  if (!endpoint || endpoint.status === 'deleted' || (endpoint.status === 'disabled' && !claimed.singleAttempt)) {
    await ports.deliveries.cancelClaimed(claimed);
    return { nextAttemptAt: null };
  }
  const attemptedAt = ports.clock();
  const headers = signWebhook(
    signingSecrets(ports.secrets, endpoint, attemptedAt),
    claimed.id,
    Math.floor(attemptedAt.getTime() / 1000),
    claimed.body,
  );
  const result = await ports.send({ url: endpoint.url, headers: { ...headers }, body: claimed.body });
  const finishedAt = ports.clock();
  const attempt = {
    attemptedAt,
    durationMs: Math.max(0, finishedAt.getTime() - attemptedAt.getTime()),
    responseCode: result.responseCode,
    error: result.error,
  };
  const attemptNo = claimed.scheduledAttempts + 1;
  ports.observe(result.error ? 'failed' : 'delivered', attempt.durationMs / 1000);

  return ports.db.transaction(async (m) => {
    if (!result.error) {
      const recorded = await ports.deliveries.recordAttempt(m, claimed, {
        ...attempt,
        status: 'succeeded',
        scheduledAttempts: attemptNo,
        nextAttemptAt: null,
      });
      if (recorded) await ports.endpoints.noteSuccess(m, endpoint.id);
      return { nextAttemptAt: null };
    }
    const next = nextAttemptAfterFailure(ports.policy, attemptNo, claimed.singleAttempt, finishedAt);
    const recorded = await ports.deliveries.recordAttempt(m, claimed, {
      ...attempt,
      status: next ? 'pending' : 'failed',
      scheduledAttempts: attemptNo,
      nextAttemptAt: next,
    });
    if (!recorded) return { nextAttemptAt: null };
    const failing = await ports.endpoints.noteFailure(m, endpoint.id, attemptedAt);
    if (
      failing?.status === 'enabled' &&
      failing.failingSince &&
      failedLongEnough(ports.policy, failing.failingSince, finishedAt)
    ) {
      await ports.endpoints.change(
        m,
        endpoint.id,
        {
          status: 'disabled',
          disabledReason: disabledReason(ports.policy, failing.failingSince, result.error),
          disabledAt: finishedAt,
        },
        finishedAt,
      );
      await ports.deliveries.cancelPending(m, endpoint.id);
      ports.logger.warn('webhook endpoint disabled after failing continuously', {
        endpointId: endpoint.id,
        failingSince: failing.failingSince.toISOString(),
      });
      return { nextAttemptAt: null };
    }
    return { nextAttemptAt: next };
  });
}
