import { listDeadLetters } from '@postbus/bus';
import type { CliCommand } from '../postbus';
import { optionalArg, requiredArg } from './auth-cli';

export const command: CliCommand = {
  name: 'dead-letters',
  summary: 'Show the messages parked in <ns>.<queue>.dead and why (they stay there)',
  usage: 'dead-letters --queue <queue, e.g. publisher.due> [--limit 50] [--json]',
  async run(args, { bus }) {
    const queue = requiredArg(args, 'queue', 'queue');
    const limit = Number(optionalArg(args, 'limit') ?? 50);
    if (!Number.isInteger(limit) || limit < 1) throw new Error('--limit must be a positive integer');
    const found = await listDeadLetters((await bus()).connection, queue, { limit });
    if (args.json) {
      console.log(JSON.stringify(found, null, 2));
      return;
    }
    console.log(
      `${found.queue}: ${found.depth} message(s)${found.depth > found.letters.length ? `, showing ${found.letters.length}` : ''}`,
    );
    for (const l of found.letters)
      console.log(
        `  ${l.messageId ?? '-'}  ${l.event ?? '-'}  ${l.deadAt ?? '-'}  attempt ${l.attempt ?? '-'}  ${l.reason}`,
      );
  },
};
