import { ACCOUNT_PLANS, Rpc, type AccountPlan } from '@postbus/contracts';
import type { CliCommand } from '../postbus';
import { optionalArg, printResult, requiredArg } from './auth-cli';

export const command: CliCommand = {
  name: 'set-plan',
  summary: `Change an account's plan (${ACCOUNT_PLANS.join(', ')}) and/or when its trial ends`,
  usage: 'set-plan --account <acc_…> [--plan pro] [--trial-ends <ISO 8601>] [--json]',
  async run(args, { bus }) {
    const accountId = requiredArg(args, 'account', 'acc_…');
    const plan = optionalArg(args, 'plan');
    const trialEndsAt = optionalArg(args, 'trial-ends');
    if (!plan && !trialEndsAt) throw new Error('give --plan or --trial-ends');
    if (plan && !(ACCOUNT_PLANS as readonly string[]).includes(plan))
      throw new Error(`--plan must be one of ${ACCOUNT_PLANS.join(', ')}`);
    if (trialEndsAt && Number.isNaN(Date.parse(trialEndsAt)))
      throw new Error('--trial-ends must be an ISO 8601 time with Z or an offset');
    const summary = await (
      await bus()
    ).rpc.call(Rpc.authUpdateAccount, {
      accountId,
      plan: plan as AccountPlan | undefined,
      trialEndsAt: trialEndsAt && new Date(trialEndsAt).toISOString(),
    });
    printResult(args, summary);
  },
};
