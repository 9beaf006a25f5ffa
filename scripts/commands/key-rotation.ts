import { randomBytes } from 'node:crypto';
import type { Rpc } from '@postbus/contracts';
import type { CliCommand } from '../postbus';

/** Every rotation RPC takes an optional key id and answers what it re-sealed. */
type RotationRpc = typeof Rpc.connectionsRotateTokenKey;

export interface KeyRotation {
  name: string;
  /** What the key seals, in the singular: "token". */
  what: string;
  vars: { keyId: string; key: string; previous: string };
  rpc: RotationRpc;
}

/**
 * A key rotation, run against the live system:
 *   1. `pnpm postbus <name> --generate` prints a new key;
 *   2. restart every replica of the service that holds the key with the key id and key set to the
 *      new ones and the old key kept in the previous keys ("old-id:old-key");
 *   3. `pnpm postbus <name> --key-id <new id>` re-seals everything stored under the new key;
 *   4. remove the old key from the previous keys and restart again.
 */
export function keyRotationCommand(r: KeyRotation): CliCommand {
  return {
    name: r.name,
    summary: `Re-encrypt every stored ${r.what} under the current ${r.vars.keyId} (--generate prints a new key)`,
    usage: `${r.name} [--key-id <id>] [--generate]`,
    async run(args, ctx) {
      if (args.generate) {
        const id =
          typeof args['key-id'] === 'string'
            ? args['key-id']
            : `k${new Date().toISOString().slice(0, 10).replace(/-/g, '')}`;
        console.log(
          `${r.vars.keyId}=${id}\n${r.vars.key}=${randomBytes(32).toString('base64')}\n\nKeep the current key readable meanwhile: ${r.vars.previous}=<current id>:<current key>`,
        );
        return;
      }
      const bus = await ctx.bus();
      const keyId = typeof args['key-id'] === 'string' ? args['key-id'] : undefined;
      const result = await bus.rpc.call(r.rpc, { keyId }, null, { timeoutMs: 10 * 60_000 });
      console.log(
        `Re-encrypted ${result.rotated} ${r.what}(s) under key ${result.keyId}; ${result.alreadyCurrent} already were.`,
      );
      console.log(`Every stored ${r.what} now uses this key: previous keys can be removed from ${r.vars.previous}.`);
    },
  };
}
