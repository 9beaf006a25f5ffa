import { Rpc } from '@postbus/contracts';
import type { CliCommand } from '../postbus';
import { optionalArg, printResult } from './auth-cli';

export const command: CliCommand = {
  name: 'set-disabled',
  summary: 'Disable an account or one user (their keys answer api_access_disabled); --off enables again',
  usage: 'set-disabled (--account <acc_…> | --user <usr_…>) [--off] [--json]',
  async run(args, { bus }) {
    const accountId = optionalArg(args, 'account');
    const userId = optionalArg(args, 'user');
    if (!accountId === !userId) throw new Error('give exactly one of --account or --user');
    const disabled = args.off !== true;
    const rpc = (await bus()).rpc;
    const result = accountId
      ? await rpc.call(Rpc.authUpdateAccount, { accountId, disabled })
      : await rpc.call(Rpc.authUpdateUser, { userId: userId!, disabled });
    printResult(args, result);
  },
};
