import { Rpc } from '@postbus/contracts';
import type { CliCommand } from '../postbus';
import { printResult, requiredArg } from './auth-cli';

export const command: CliCommand = {
  name: 'revoke-key',
  summary: 'Revoke an API key; every gateway refuses it within a second',
  usage: 'revoke-key --key <key_…> [--json]',
  async run(args, { bus }) {
    const keyId = requiredArg(args, 'key', 'key_…');
    const key = await (await bus()).rpc.call(Rpc.authRevokeKey, { keyId });
    printResult(args, {
      keyId: key.keyId,
      accountId: key.accountId,
      name: key.name,
      status: key.status,
      revokedAt: key.revokedAt,
    });
  },
};
