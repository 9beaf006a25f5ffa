import type { Post } from '@postbus/contracts';
import { postAsAnnounced, PostNotCaughtUp } from '../src/events/post-as-announced';

const aPost = (over: Partial<Post> = {}): Post => ({
  id: 'pst_1',
  status: 'scheduled',
  caption: 'hello',
  title: null,
  platforms: ['threads'],
  profileIds: ['prf_1'],
  mediaUrls: [],
  scheduledTime: '2025-01-01T00:00:00.000Z',
  publishedAt: null,
  failedReason: null,
  externalId: null,
  permalink: null,
  warnings: [],
  firstComment: null,
  thread: [],
  platformMeta: null,
  category: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...over,
});

const published = {
  postId: 'pst_1',
  publishedAt: '2025-01-01T00:00:02.000Z',
  permalink: 'https://www.threads.net/@me/post/1',
};

describe('the post an event carries', () => {
  test('when posts has applied the event, then the post is carried as read', () => {
    const post = aPost({ status: 'posted', publishedAt: published.publishedAt, permalink: published.permalink });
    expect(postAsAnnounced('post.published', post, published, true)).toBe(post);
  });

  test('when posts has not applied it yet and waiting is allowed, then it asks to read again', () => {
    expect(() => postAsAnnounced('post.published', aPost(), published, true)).toThrow(PostNotCaughtUp);
  });

  test("when posts has still not applied it after the waits, then the event's own facts complete the post", () => {
    expect(postAsAnnounced('post.published', aPost(), published, false)).toMatchObject({
      status: 'posted',
      publishedAt: published.publishedAt,
      permalink: published.permalink,
    });
    expect(postAsAnnounced('post.failed', aPost(), { postId: 'pst_1', reason: 'token expired' }, false)).toMatchObject({
      status: 'failed',
      failedReason: 'token expired',
    });
    expect(postAsAnnounced('post.cancelled', aPost(), { postId: 'pst_1' }, false)).toMatchObject({
      status: 'cancelled',
    });
  });

  test('when post.restricted comes before posts applied its post.published, then it asks to read again, and after the waits the event completes the post with its warnings', () => {
    const warnings = [{ code: 'youtube_private_lock', message: 'The video is on YouTube but private.' }];
    expect(() => postAsAnnounced('post.restricted', aPost(), { ...published, warnings }, true)).toThrow(
      PostNotCaughtUp,
    );
    expect(postAsAnnounced('post.restricted', aPost(), { ...published, warnings }, false)).toMatchObject({
      status: 'posted',
      permalink: published.permalink,
      warnings,
    });
    expect(postAsAnnounced('post.published', aPost(), { ...published, warnings }, false).warnings).toEqual(warnings);
  });

  test('when the post already ended otherwise (a late, contradicting result), then it is carried as it is', () => {
    const posted = aPost({ status: 'posted' });
    expect(postAsAnnounced('post.failed', posted, { reason: 'late' }, true)).toBe(posted);
  });

  test('when the event says nothing about the status (post.scheduled), then the post is carried as read', () => {
    const post = aPost();
    expect(postAsAnnounced('post.scheduled', post, {}, true)).toBe(post);
  });
});
