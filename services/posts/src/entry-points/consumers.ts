import { compile, describeErrors, Events } from '@postbus/contracts';
import { PermanentError, type Bus, type EventConsumer } from '@postbus/bus';
import type { PostRepository } from '../posts/post.repository';
import { applyPublishResult } from '../results/apply-publish-result.use-case';

const schemas = { [Events.postPublished.name]: Events.postPublished.schema, [Events.postFailed.name]: Events.postFailed.schema };

/** post.published / post.failed → the post, once. A body that breaks its contract goes to dead letters. */
export function consumeResults(bus: Bus, posts: PostRepository): EventConsumer {
  return bus.consume({
    queue: 'posts.results',
    events: [Events.postPublished.name, Events.postFailed.name],
    prefetch: 32,
    async handler(event) {
      const schema = schemas[event.name];
      if (!schema) return;
      const check = compile(schema);
      if (!check(event.data)) throw new PermanentError(`${event.name} does not match its contract: ${describeErrors(check.errors)}`);
      await applyPublishResult(posts, event);
    },
  });
}
