import { Rpc } from '@postbus/contracts';
import { keyRotationCommand } from './key-rotation';

/** Platform tokens, sealed by the connections service (see keyRotationCommand for the steps). */
export const command = keyRotationCommand({
  name: 'rotate-token-key',
  what: 'token',
  vars: { keyId: 'TOKEN_KEY_ID', key: 'TOKEN_ENCRYPTION_KEY', previous: 'TOKEN_PREVIOUS_KEYS' },
  rpc: Rpc.connectionsRotateTokenKey,
});
