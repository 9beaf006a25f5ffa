import { Rpc, SCOPES } from '@postbus/contracts';
import type { CliCommand } from '../postbus';
import { optionalArg, printResult, requiredArg } from './auth-cli';

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export const command: CliCommand = {
  name: 'issue-key',
  summary: 'Issue an API key and print it once (all scopes and all profiles unless limited)',
  usage:
    'issue-key --account <acc_…> [--user <usr_…>] [--name <name>] [--scopes a,b|all] [--profiles all|prf_…,prf_…] [--expires <ISO 8601>] [--json]',
  async run(args, { bus }) {
    const accountId = requiredArg(args, 'account', 'acc_…');
    const scopes = optionalArg(args, 'scopes');
    const profiles = optionalArg(args, 'profiles');
    const expires = optionalArg(args, 'expires');
    if (expires && Number.isNaN(Date.parse(expires)))
      throw new Error('--expires must be an ISO 8601 time with Z or an offset');
    const issued = await (
      await bus()
    ).rpc.call(Rpc.authIssueKey, {
      accountId,
      userId: optionalArg(args, 'user'),
      name: optionalArg(args, 'name') ?? 'operator',
      scopes: !scopes || scopes === 'all' ? [...SCOPES] : list(scopes),
      profileIds: !profiles || profiles === 'all' ? 'all' : list(profiles),
      expiresAt: expires && new Date(expires).toISOString(),
    });
    printResult(args, { keyId: issued.keyId, apiKey: issued.key });
    if (!args.json) console.error('The key is shown this once; keep it in server-side code only.');
  },
};
