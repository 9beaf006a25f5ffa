import { startSandbox, type RunningSandbox } from '../src/main';
import { call, control, newUser } from './emulator-client';

let sandbox: RunningSandbox;
let user: { userId: string; accessToken: string; handle: string };
let base: string;
/** The sandbox's clock runs ahead by this much, so processing can finish without waiting on a busy machine. */
let ahead = 0;
const PROCESSING_MS = 5_000;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    processingDelayMs: PROCESSING_MS,
    now: () => Date.now() + ahead,
    instagram: { quotaTotal: 2 },
  });
  base = `${sandbox.url}/instagram/v21.0`;
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await control(sandbox, 'POST', '/reset');
  user = await newUser(sandbox, 'instagram', 'ig.sandbox');
});

const create = (form: Record<string, string>) =>
  call(`${base}/${user.userId}/media`, { token: user.accessToken, form });
const status = (id: string) => call(`${base}/${id}?fields=status_code,status`, { token: user.accessToken });
const publish = (id: string) =>
  call(`${base}/${user.userId}/media_publish?creation_id=${id}`, { method: 'POST', token: user.accessToken });

describe('the Instagram emulator', () => {
  test('when a reel container is created, then it is IN_PROGRESS, publishing it then fails with 2207027, and once FINISHED it publishes exactly once', async () => {
    const { body } = await create({ media_type: 'REELS', video_url: 'https://cdn.example/v.mp4', caption: 'hi' });
    expect((await status(body.id)).body).toEqual({ id: body.id, status_code: 'IN_PROGRESS', status: 'IN_PROGRESS' });
    expect((await publish(body.id)).body.error).toMatchObject({ code: 9007, error_subcode: 2207027 });

    ahead += PROCESSING_MS + 100;
    expect((await status(body.id)).body.status_code).toBe('FINISHED');
    const first = await publish(body.id);
    expect(first.status).toBe(200);
    expect((await publish(body.id)).body.error).toMatchObject({
      code: 100,
      message: expect.stringMatching(/already been published/),
    });
    expect((await status(body.id)).body.status_code).toBe('PUBLISHED');
    const media = await call(`${base}/${first.body.id}?fields=id,permalink,media_product_type`, {
      token: user.accessToken,
    });
    expect(media.body).toEqual({
      id: first.body.id,
      permalink: expect.stringMatching(/^https:\/\/www\.instagram\.com\/reel\/[\w-]{11}\/$/),
      media_product_type: 'REELS',
    });
  });

  test('when the publishing quota is used, then media_publish answers 9/2207042 and content_publishing_limit shows the same counter', async () => {
    for (let i = 0; i < 2; i++)
      expect((await publish((await create({ image_url: `https://cdn.example/${i}.jpg` })).body.id)).status).toBe(200);

    const over = await publish((await create({ image_url: 'https://cdn.example/3.jpg' })).body.id);

    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 9, error_subcode: 2207042 });
    const limit = await call(`${base}/${user.userId}/content_publishing_limit?fields=quota_usage,config`, {
      token: user.accessToken,
    });
    expect(limit.body).toEqual({ data: [{ quota_usage: 2, config: { quota_total: 2, quota_duration: 86_400 } }] });
  });

  test.each([
    [{ media_type: 'VIDEO', video_url: 'https://cdn.example/v.mp4' }, 100, undefined],
    [{ media_type: 'REELS', video_url: 'https://cdn.example/v.mp4', thumb_offset: '30000' }, 1, 2207057],
    [{ media_type: 'REELS' }, 100, undefined],
    [
      { image_url: 'https://cdn.example/a.jpg', caption: Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' ') },
      100,
      2207010,
    ],
    [{ media_type: 'CAROUSEL', children: '1,2' }, 100, undefined],
  ])('when a container is created with %j, then it is refused with code %i / %s', async (form, code, subcode) => {
    const res = await create(form);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code, ...(subcode && { error_subcode: subcode }) });
  });

  test('when media fails processing, then the container is ERROR with the subcode in its status, and a carousel with it is ERROR too', async () => {
    const bad = await create({
      image_url: 'https://cdn.example/fail-processing-2207004.jpg',
      is_carousel_item: 'true',
    });
    const good = await create({ image_url: 'https://cdn.example/ok.jpg', is_carousel_item: 'true' });
    const parent = await create({ media_type: 'CAROUSEL', children: `${bad.body.id},${good.body.id}` });

    expect((await status(bad.body.id)).body).toMatchObject({ status_code: 'ERROR', status: 'Error: 9004/2207004' });
    expect((await status(parent.body.id)).body.status_code).toBe('ERROR');
    expect((await publish(parent.body.id)).body.error).toMatchObject({ code: 9004, error_subcode: 2207004 });
  });

  test('when media fails with "-once", then only the first container of that URL is ERROR and a new container of it is FINISHED', async () => {
    const first = await create({ image_url: 'https://cdn.example/fail-processing-2207003-once.jpg' });
    const second = await create({ image_url: 'https://cdn.example/fail-processing-2207003-once.jpg' });

    expect((await status(first.body.id)).body).toMatchObject({ status_code: 'ERROR', status: 'Error: 9004/2207003' });
    expect((await status(second.body.id)).body.status_code).toBe('FINISHED');
  });

  test("when another account's token or an unknown token is used, then Graph's errors answer", async () => {
    const other = await newUser(sandbox, 'instagram', 'other');
    expect(
      (await call(`${base}/${user.userId}/media`, { token: other.accessToken, form: { image_url: 'https://a/b.jpg' } }))
        .body.error,
    ).toMatchObject({ code: 100, error_subcode: 33 });
    const unknown = await call(`${base}/${user.userId}/media`, {
      token: 'IGAAnope',
      form: { image_url: 'https://a/b.jpg' },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe(190);
  });

  test('when a throttle fault is queued for publish, then that call answers code 4 with X-App-Usage and the next one goes through', async () => {
    const { body } = await create({ image_url: 'https://cdn.example/a.jpg' });
    await control(sandbox, 'POST', '/faults', { platform: 'instagram', mode: 'throttle', operation: 'publish' });

    const throttled = await publish(body.id);

    expect(throttled.status).toBe(429);
    expect(throttled.body.error).toMatchObject({ code: 4, is_transient: true });
    expect(throttled.headers.get('x-app-usage')).toContain('call_count');
    expect((await publish(body.id)).status).toBe(200);
  });
});
