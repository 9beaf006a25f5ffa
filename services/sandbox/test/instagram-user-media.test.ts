import { startSandbox, type RunningSandbox } from '../src/main';
import { call, control, newUser } from './emulator-client';

/** `GET /{ig-user-id}/media`: a user's media, as the Instagram Graph API lists them; comments go on media, not containers. */

let clock = Date.parse('2026-01-01T12:00:00Z');
let sandbox: RunningSandbox;
let base: string;
let user: { userId: string; accessToken: string; handle: string };

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 0, now: () => clock });
  base = `${sandbox.url}/instagram/v21.0`;
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await control(sandbox, 'POST', '/reset');
  user = await newUser(sandbox, 'instagram', 'ig.lister');
});

const get = (path: string, token = user.accessToken) => call(`${base}${path}`, { token });

/** Creates and publishes one image (or story) post; answers the container and media ids. */
async function post(caption: string, extra: Record<string, string> = {}): Promise<{ container: string; id: string }> {
  const form = { image_url: `https://cdn.example/${clock}.jpg`, ...(caption && { caption }), ...extra };
  const created = await call(`${base}/${user.userId}/media`, { token: user.accessToken, form });
  clock += 1000;
  const published = await call(`${base}/${user.userId}/media_publish?creation_id=${created.body.id}`, {
    method: 'POST',
    token: user.accessToken,
  });
  clock += 60_000;
  return { container: created.body.id, id: published.body.id };
}

describe("an Instagram user's media", () => {
  test('when a user has posts and a story, then the posts come newest first, without the story, with the fields asked', async () => {
    const first = await post('first');
    const second = await post('');
    await post('a story', { media_type: 'STORIES' });

    const listed = await get(`/${user.userId}/media?fields=id,caption,permalink,timestamp,media_product_type`);

    expect(listed.status).toBe(200);
    expect(listed.body.data.map((m: { id: string }) => m.id)).toEqual([second.id, first.id]);
    expect(listed.body.data[1]).toEqual({
      id: first.id,
      caption: 'first',
      permalink: expect.stringMatching(/^https:\/\/www\.instagram\.com\/p\/[\w-]{11}\/$/),
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/),
      media_product_type: 'FEED',
    });
    // a media without a caption has no caption field
    expect(listed.body.data[0]).not.toHaveProperty('caption');
    expect(listed.body.data.map((m: { id: string }) => m.id)).not.toContain(first.container);
  });

  test('when since and limit are given, then only media from that second on come, at most limit of them; without fields, only ids', async () => {
    await post('old');
    const cut = Math.floor(clock / 1000);
    const kept = [await post('new 1'), await post('new 2'), await post('new 3')];

    const listed = await get(`/me/media?since=${cut}&limit=2`);

    expect(listed.body.data).toEqual([{ id: kept[2].id }, { id: kept[1].id }]);
  });

  test('when limit is above 100 or since is not a Unix timestamp, then Graph refuses with code 100', async () => {
    const tooMany = await get(`/me/media?fields=id&limit=101`);
    const badSince = await get(`/me/media?fields=id&since=yesterday`);

    expect(tooMany).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    expect(badSince).toMatchObject({ status: 400, body: { error: { code: 100 } } });
  });

  test("when another user's id is named, then it does not exist for this token", async () => {
    const other = await newUser(sandbox, 'instagram', 'ig.other');

    const listed = await get(`/${other.userId}/media?fields=id`);

    expect(listed).toMatchObject({ status: 400, body: { error: { code: 100, error_subcode: 33 } } });
  });

  test('when a comment names the container a post was published from, then Graph refuses it as an unknown object; on the media it is taken', async () => {
    const { container, id } = await post('commented');
    const comment = (on: string) =>
      call(`${base}/${on}/comments`, { token: user.accessToken, form: { message: 'first!' } });

    const onContainer = await comment(container);
    const onMedia = await comment(id);

    expect(onContainer).toMatchObject({
      status: 400,
      body: { error: { code: 100, error_subcode: 33, message: expect.stringContaining(`'${container}'`) } },
    });
    expect(onMedia).toMatchObject({ status: 200, body: { id: expect.any(String) } });
  });
});
