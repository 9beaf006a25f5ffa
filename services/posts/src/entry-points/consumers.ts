import { Events } from '@postbus/contracts';
import type { Bus, EventConsumer } from '@postbus/bus';
import type { PostRepository } from '../posts/post.repository';
import type { ProfileFactRepository } from '../posts/profile-fact.repository';
import { applyFollowUpResult, applyPublishResult } from '../results/apply-publish-result.use-case';

/** post.published / post.failed (and what became of a first comment or Threads chain) → the post, once. A body that breaks its contract goes to dead letters. */
export function consumeResults(bus: Bus, posts: PostRepository): EventConsumer {
  return bus
    .consume({ queue: 'posts.results', prefetch: 32 })
    .on(Events.postPublished, (event) => applyPublishResult(posts, event))
    .on(Events.postFailed, (event) => applyPublishResult(posts, event))
    .on(Events.postFirstComment, (event) => applyFollowUpResult(posts, event))
    .on(Events.postThread, (event) => applyFollowUpResult(posts, event));
}

/** connection.changed → the profile's facts, unless newer ones are held; the event's time is when connections said so. */
export function consumeProfileFacts(bus: Bus, facts: ProfileFactRepository, clock: () => Date): EventConsumer {
  return bus
    .consume({ queue: 'posts.profile-facts', prefetch: 32 })
    .on(Events.connectionChanged, async ({ data, occurredAt }) => {
      const said = new Date(Math.min(Date.parse(occurredAt) || 0, clock().getTime()));
      await facts.save([{ ...data, connectedAt: new Date(data.connectedAt) }], said);
    });
}
