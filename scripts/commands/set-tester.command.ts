import { Rpc } from '@postbus/contracts';
import type { CliCommand } from '../postbus';
import { printResult, requiredArg } from './auth-cli';

export const command: CliCommand = {
  name: 'set-tester',
  summary: 'Mark an account as a registered tester (API access during the beta whatever its plan); --off removes it',
  usage: 'set-tester --account <acc_…> [--off] [--json]',
  async run(args, { bus }) {
    const accountId = requiredArg(args, 'account', 'acc_…');
    const summary = await (await bus()).rpc.call(Rpc.authUpdateAccount, { accountId, tester: args.off !== true });
    printResult(args, summary);
  },
};
