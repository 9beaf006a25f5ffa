import type { Database } from '@postbus/kit';
import { AppError, Rpc } from '@postbus/contracts';
import type { RpcServer } from '@postbus/bus';
import { rotateSecretKey } from '../endpoints/reseal-secrets.use-case';
import type { EndpointRepository } from '../endpoints/endpoint.repository';
import type { WebhookSecretBox } from '../endpoints/webhook-secret-box';

/** The operator's commands (signed with the operator credential; no principal). */
export function registerOperatorRpc(
  rpc: RpcServer,
  ports: { db: Database; endpoints: EndpointRepository; secrets: WebhookSecretBox },
): void {
  rpc.handle(Rpc.webhooksRotateSecretKey, async ({ keyId }) => {
    const current = ports.secrets.ring.currentKeyId;
    if (keyId && keyId !== current) {
      throw new AppError(
        'validation_error',
        `This webhooks replica seals with key ${current}, not ${keyId}; restart every replica with the new WEBHOOK_SECRET_KEY_ID first.`,
      );
    }
    return rotateSecretKey(ports);
  });
}
