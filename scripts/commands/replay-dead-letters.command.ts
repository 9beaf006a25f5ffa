import { replayDeadLetters } from '@postbus/bus';
import type { CliCommand } from '../postbus';
import { optionalArg, printResult, requiredArg } from './auth-cli';

export const command: CliCommand = {
  name: 'replay-dead-letters',
  summary: 'Move dead letters back to their work queue as first attempts (all, --id ones, or the first --limit)',
  usage: 'replay-dead-letters --queue <queue> [--id <messageId,…>] [--limit n] [--json]',
  async run(args, { bus }) {
    const queue = requiredArg(args, 'queue', 'queue');
    const ids = optionalArg(args, 'id')
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const rawLimit = optionalArg(args, 'limit');
    const limit = rawLimit === undefined ? undefined : Number(rawLimit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
      throw new Error('--limit must be a positive integer');
    const result = await replayDeadLetters((await bus()).connection, queue, { messageIds: ids, limit });
    printResult(args, {
      queue: result.queue,
      replayed: result.replayed.length,
      messageIds: result.replayed.map((l) => l.messageId),
      left: result.left,
    });
  },
};
