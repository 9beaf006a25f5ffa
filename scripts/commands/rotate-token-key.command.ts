import { randomBytes } from 'node:crypto';
import { Rpc } from '@postbus/contracts';
import type { CliCommand } from '../postbus';

/**
 * Token key rotation, run against the live system:
 *   1. `pnpm postbus rotate-token-key --generate` prints a new key;
 *   2. restart every connections replica with TOKEN_KEY_ID/TOKEN_ENCRYPTION_KEY set to it and the
 *      old key kept in TOKEN_PREVIOUS_KEYS ("old-id:old-key");
 *   3. `pnpm postbus rotate-token-key --key-id <new id>` re-encrypts every stored token;
 *   4. remove the old key from TOKEN_PREVIOUS_KEYS and restart again.
 */
export const command: CliCommand = {
  name: 'rotate-token-key',
  summary: 'Re-encrypt every stored platform token under the current TOKEN_KEY_ID (--generate prints a new key)',
  usage: 'rotate-token-key [--key-id <id>] [--generate]',
  async run(args, ctx) {
    if (args.generate) {
      const id = typeof args['key-id'] === 'string' ? args['key-id'] : `k${new Date().toISOString().slice(0, 10).replace(/-/g, '')}`;
      console.log(`TOKEN_KEY_ID=${id}\nTOKEN_ENCRYPTION_KEY=${randomBytes(32).toString('base64')}\n\nKeep the current key readable meanwhile: TOKEN_PREVIOUS_KEYS=<current id>:<current key>`);
      return;
    }
    const bus = await ctx.bus();
    const keyId = typeof args['key-id'] === 'string' ? args['key-id'] : undefined;
    const result = await bus.rpc.call(Rpc.connectionsRotateTokenKey, { keyId }, null, { timeoutMs: 10 * 60_000 });
    console.log(`Re-encrypted ${result.rotated} token(s) under key ${result.keyId}; ${result.alreadyCurrent} already were.`);
    console.log('Every stored token now uses this key: previous keys can be removed from TOKEN_PREVIOUS_KEYS.');
  },
};
