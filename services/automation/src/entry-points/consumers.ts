import { Events } from '@postbus/contracts';
import type { Bus, EventConsumer } from '@postbus/bus';
import type { AnswerPorts } from '../replies/answer.ports';
import { answerComment } from '../replies/answer-comment.use-case';

/** comment.received → the comment answered (or not) for each account; passing failures retry through delay queues, a body that breaks its contract goes to dead letters. */
export function consumeComments(
  bus: Bus,
  ports: AnswerPorts,
  opts: { retryDelaysMs: number[]; concurrency: number },
): EventConsumer {
  return bus
    .consume({ queue: 'automation.comments', retryDelaysMs: opts.retryDelaysMs, prefetch: opts.concurrency })
    .on(Events.commentReceived, (event, { attempt }) =>
      answerComment(ports, event.data, { finalAttempt: attempt > opts.retryDelaysMs.length }),
    );
}
