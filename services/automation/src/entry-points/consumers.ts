import { compile, describeErrors, Events } from '@postbus/contracts';
import { PermanentError, type Bus, type EventConsumer } from '@postbus/bus';
import type { AnswerPorts } from '../replies/answer.ports';
import { answerComment } from '../replies/answer-comment.use-case';

/** comment.received → the comment answered (or not) for each account; passing failures retry through delay queues. */
export function consumeComments(bus: Bus, ports: AnswerPorts, opts: { retryDelaysMs: number[]; concurrency: number }): EventConsumer {
  const check = compile(Events.commentReceived.schema);
  return bus.consume({
    queue: 'automation.comments',
    events: [Events.commentReceived.name],
    retryDelaysMs: opts.retryDelaysMs,
    prefetch: opts.concurrency,
    async handler(event, { attempt }) {
      if (!check(event.data)) throw new PermanentError(`${event.name} does not match its contract: ${describeErrors(check.errors)}`);
      await answerComment(ports, event.data, { finalAttempt: attempt > opts.retryDelaysMs.length });
    },
  });
}
