import { Rpc } from '@postbus/contracts';
import type { CliCommand } from '../postbus';
import { optionalArg, printResult, requiredArg } from './auth-cli';

export const command: CliCommand = {
  name: 'create-account',
  summary: 'Create an account with its first user (trial unless --plan; password from --password or POSTBUS_PASSWORD)',
  usage: 'create-account --email <email> [--password <pw>] [--plan pro] [--tester] [--json]',
  async run(args, { bus, env }) {
    const email = requiredArg(args, 'email', 'email');
    const password = optionalArg(args, 'password') ?? (env.POSTBUS_PASSWORD || undefined);
    const created = await (
      await bus()
    ).rpc.call(Rpc.authCreateAccount, {
      email,
      password,
      plan: optionalArg(args, 'plan'),
      tester: args.tester === true || undefined,
    });
    printResult(args, { ...created, email });
  },
};
