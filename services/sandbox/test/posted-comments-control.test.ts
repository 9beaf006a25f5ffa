import { startSandbox, type RunningSandbox } from '../src/main';
import { call, control, newUser } from './emulator-client';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

describe('GET /__sandbox/comments/posted', () => {
  test('when accounts comment on their own posts and reply on Threads, then the control API lists those comments oldest first, by platform and by post', async () => {
    const page = await newUser(sandbox, 'facebook', 'fb_posted');
    const threads = await newUser(sandbox, 'threads', 'th_posted');
    const fb = (path: string) => `${sandbox.url}/facebook/v21.0${path}`;
    const th = (path: string) => `${sandbox.url}/threads/v1.0${path}`;
    const publishThreads = async (form: Record<string, string>) => {
      const container = await call(th(`/${threads.userId}/threads`), {
        token: threads.accessToken,
        form: { media_type: 'TEXT', ...form },
      });
      return (
        await call(th(`/${threads.userId}/threads_publish`), {
          token: threads.accessToken,
          form: { creation_id: container.body.id },
        })
      ).body.id as string;
    };
    const post = await call(fb(`/${page.userId}/feed`), { token: page.accessToken, form: { message: 'news' } });
    const comment = await call(fb(`/${post.body.id}/comments`), {
      token: page.accessToken,
      form: { message: 'first comment' },
    });
    const root = await publishThreads({ text: 'root' });
    const reply = await publishThreads({ text: 'second part', reply_to_id: root });

    const all = await control(sandbox, 'GET', '/comments/posted');
    expect(all.status).toBe(200);
    expect(
      all.body.map((c: { id: string; platform: string; postId: string; text: string }) => [
        c.platform,
        c.id,
        c.postId,
        c.text,
      ]),
    ).toEqual([
      ['facebook', comment.body.id, post.body.id, 'first comment'],
      ['threads', reply, root, 'second part'],
    ]);
    expect(
      (await control(sandbox, 'GET', '/comments/posted?platform=threads')).body.map((c: { id: string }) => c.id),
    ).toEqual([reply]);
    expect(
      (await control(sandbox, 'GET', `/comments/posted?postId=${post.body.id}`)).body.map((c: { id: string }) => c.id),
    ).toEqual([comment.body.id]);
  });
});
