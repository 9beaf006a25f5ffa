import type { Post, Principal } from '@postbus/contracts';
import { FinalPosts, isSettled } from '../src/entry-points/http/final-posts';

const principal = (over: Partial<Principal> = {}): Principal => ({
  accountId: 'acc1',
  userId: 'u1',
  credential: { type: 'api_key', id: 'k1' },
  scopes: ['posts:read'],
  profileIds: 'all',
  ...over,
});
const aPost = (id: string, over: Partial<Post> = {}): Post =>
  ({ id, status: 'posted', profileIds: ['pr1'], firstComment: null, thread: [], ...over }) as Post;
const answer = (json: string) => ({ json, etag: `W/"${json.length}"` });
const pending = { text: 'c', status: 'pending' as const, permalink: null, failedReason: null };

describe('isSettled', () => {
  test('when a post is final and nothing after it is pending, then it is settled; otherwise not', () => {
    expect(isSettled(aPost('a'))).toBe(true);
    expect(isSettled(aPost('a', { status: 'cancelled' }))).toBe(true);
    expect(isSettled(aPost('a', { status: 'scheduled' }))).toBe(false);
    expect(isSettled(aPost('a', { firstComment: pending }))).toBe(false);
    expect(isSettled(aPost('a', { thread: [{ ...pending, status: 'posted' }, pending] }))).toBe(false);
  });
});

describe('FinalPosts', () => {
  test('when a settled post is kept, then only callers of its account whose key sees its profile get it', () => {
    const finals = new FinalPosts(1 << 20);
    finals.keep(principal(), aPost('a'), answer('{"id":"a"}'));
    expect(finals.answerFor(principal(), 'a')?.json).toBe('{"id":"a"}');
    expect(finals.answerFor(principal({ profileIds: ['pr1'] }), 'a')).toBeDefined();
    expect(finals.answerFor(principal({ accountId: 'acc2' }), 'a')).toBeUndefined();
    expect(finals.answerFor(principal({ profileIds: ['pr2'] }), 'a')).toBeUndefined();
  });

  test('when a post is not settled, then it is not kept', () => {
    const finals = new FinalPosts(1 << 20);
    finals.keep(principal(), aPost('a', { status: 'scheduled' }), answer('{}'));
    finals.keep(principal(), aPost('b', { firstComment: pending }), answer('{}'));
    expect(finals.size).toBe(0);
  });

  test('when the bound is passed, then the least recently read answers go first', () => {
    const json = 'x'.repeat(1000);
    const finals = new FinalPosts(3 * (2 * json.length + 256));
    for (const id of ['a', 'b', 'c']) finals.keep(principal(), aPost(id), answer(json));
    finals.answerFor(principal(), 'a');
    finals.keep(principal(), aPost('d'), answer(json));
    expect(['a', 'b', 'c', 'd'].map((id) => finals.answerFor(principal(), id) !== undefined)).toEqual([
      true,
      false,
      true,
      true,
    ]);
  });

  test('when a kept post changes after all, then forgetting it reads it anew; a bound of 0 keeps nothing', () => {
    const finals = new FinalPosts(1 << 20);
    finals.keep(principal(), aPost('a'), answer('{}'));
    finals.forget('acc1', 'a', () => true);
    expect(finals.answerFor(principal(), 'a')).toBeUndefined();
    const none = new FinalPosts(0);
    none.keep(principal(), aPost('a'), answer('{}'));
    expect(none.size).toBe(0);
  });

  test('when a first comment settles anew, then an answer from before the change is not kept, and one showing it is', () => {
    const finals = new FinalPosts(1 << 20);
    const posted = { text: 'c', status: 'posted' as const, permalink: 'https://p/1', failedReason: null };
    const failed = { text: 'c', status: 'failed' as const, permalink: null, failedReason: 'Removed.' };
    finals.keep(principal(), aPost('a', { firstComment: posted }), answer('{"old":1}'));

    finals.forgetFirstComment('acc1', 'a', failed);
    finals.keep(principal(), aPost('a', { firstComment: posted }), answer('{"old":2}'));
    expect(finals.answerFor(principal(), 'a')).toBeUndefined();

    finals.keep(principal(), aPost('a', { firstComment: { ...failed } }), answer('{"new":1}'));
    expect(finals.answerFor(principal(), 'a')?.json).toBe('{"new":1}');
  });

  test('when a chain settles anew, then only an answer showing the announced chain is kept again', () => {
    const finals = new FinalPosts(1 << 20);
    const part = { text: 'p', status: 'posted' as const, permalink: 'https://p/2', failedReason: null };
    finals.forgetThread('acc1', 'a', [part]);
    finals.keep(principal(), aPost('a', { thread: [] }), answer('{"old":1}'));
    expect(finals.size).toBe(0);
    finals.keep(principal(), aPost('a', { thread: [part] }), answer('{"new":1}'));
    expect(finals.size).toBe(1);
  });
});
