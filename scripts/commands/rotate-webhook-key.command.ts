import { Rpc } from '@postbus/contracts';
import { keyRotationCommand } from './key-rotation';

/** Webhook signing secrets, sealed by the webhooks service (see keyRotationCommand for the steps). */
export const command = keyRotationCommand({
  name: 'rotate-webhook-key',
  what: 'webhook secret',
  vars: {
    keyId: 'WEBHOOK_SECRET_KEY_ID',
    key: 'WEBHOOK_SECRET_ENCRYPTION_KEY',
    previous: 'WEBHOOK_SECRET_PREVIOUS_KEYS',
  },
  rpc: Rpc.webhooksRotateSecretKey,
});
