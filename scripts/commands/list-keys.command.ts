import { Rpc } from '@postbus/contracts';
import type { CliCommand } from '../postbus';
import { requiredArg } from './auth-cli';

export const command: CliCommand = {
  name: 'list-keys',
  summary: "List an account's API keys with their scopes, status and last use",
  usage: 'list-keys --account <acc_…> [--json]',
  async run(args, { bus }) {
    const accountId = requiredArg(args, 'account', 'acc_…');
    const { keys } = await (await bus()).rpc.call(Rpc.authListKeys, { accountId });
    if (args.json) return console.log(JSON.stringify(keys, null, 2));
    if (!keys.length) return console.log('no keys');
    for (const k of keys) {
      console.log(
        [
          k.keyId,
          k.status.padEnd(7),
          k.prefix,
          JSON.stringify(k.name),
          k.scopes.join(' '),
          `profiles=${k.profileIds === 'all' ? 'all' : k.profileIds.join(',')}`,
          `lastUsed=${k.lastUsedAt ?? 'never'}`,
        ].join('  '),
      );
    }
  },
};
