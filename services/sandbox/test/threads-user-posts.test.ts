import { startSandbox, type RunningSandbox } from '../src/main';
import { aThreadsAccount, control, graph, type ThreadsAccount } from './sandbox-client';

/** `GET /{user}/threads`: a user's posts, as the Threads API lists them. */

let clock = Date.parse('2026-01-01T12:00:00Z');
let sandbox: RunningSandbox;
let account: ThreadsAccount;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 1000, now: () => clock });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await control(sandbox, 'POST', '/reset');
  account = await aThreadsAccount(sandbox, 'ada');
});

async function post(text: string, replyToId?: string): Promise<string> {
  const { body } = await graph(account, 'POST', `/${account.userId}/threads`, {
    media_type: 'TEXT',
    text,
    ...(replyToId && { reply_to_id: replyToId }),
  });
  clock += 1000;
  const published = await graph(account, 'POST', `/${account.userId}/threads_publish?creation_id=${body.id}`);
  clock += 60_000;
  return published.body.id as string;
}

describe("a Threads user's posts", () => {
  test('when a user has posts and a reply, then the posts come newest first, without the reply, with the fields asked', async () => {
    const first = await post('first');
    const second = await post('second');
    await post('a reply', first);

    const listed = await graph(account, 'GET', `/${account.userId}/threads?fields=id,text,permalink,timestamp`);

    expect(listed.status).toBe(200);
    expect(listed.body.data.map((p: { text: string }) => p.text)).toEqual(['second', 'first']);
    expect(listed.body.data[0]).toEqual({
      id: second,
      text: 'second',
      permalink: expect.stringMatching(/^https:\/\/www\.threads\.net\/@ada\/post\//),
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/),
    });
  });

  test('when since and limit are given, then only posts from that second on come, at most limit of them', async () => {
    await post('old');
    const cut = Math.floor(clock / 1000);
    await post('new 1');
    await post('new 2');
    await post('new 3');

    const listed = await graph(account, 'GET', `/me/threads?fields=text&since=${cut}&limit=2`);

    expect(listed.body.data.map((p: { text: string }) => p.text)).toEqual(['new 3', 'new 2']);
  });

  test('when limit is above 100 or since is not a Unix timestamp, then Graph refuses with code 100', async () => {
    const tooMany = await graph(account, 'GET', `/me/threads?fields=id&limit=101`);
    const badSince = await graph(account, 'GET', `/me/threads?fields=id&since=yesterday`);

    expect(tooMany).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    expect(badSince).toMatchObject({ status: 400, body: { error: { code: 100 } } });
  });

  test("when another user's id is named, then it does not exist for this token", async () => {
    const other = await aThreadsAccount(sandbox, 'bob');

    const listed = await graph(account, 'GET', `/${other.userId}/threads?fields=id`);

    expect(listed.status).toBe(400);
  });
});
