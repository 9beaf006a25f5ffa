import { aJpeg, createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { tiktokPhotoProblems } from '../../../services/posts/src/posts/tiktok-photos.rules';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const VERIFIED = ['https://cdn.example/tiktok/'];
const link = (url: string, i = 0) => ({ field: `mediaUrls[${i}]`, url });

describe('the TikTok photo rules', () => {
  test('when a photo is a PNG (by its stored type, or by its extension), then unsupported_photo_format on its field; JPEG and WebP pass', () => {
    const problems = tiktokPhotoProblems(
      ['tiktok'],
      [
        { field: 'mediaId', url: 'https://cdn.example/tiktok/files/med_1?sig=s', contentType: 'image/png' },
        link('https://cdn.example/tiktok/b.png', 0),
        link('https://cdn.example/tiktok/c.JPG', 1),
        link('https://cdn.example/tiktok/d.webp', 2),
      ],
      VERIFIED,
    );

    expect(problems.map((p) => [p.code, p.field, p.platform])).toEqual([
      ['unsupported_photo_format', 'mediaId', 'tiktok'],
      ['unsupported_photo_format', 'mediaUrls[0]', 'tiktok'],
    ]);
    expect(problems[0].message).toContain('JPEG or WebP');
  });

  test("when a photo is outside every verified prefix, then media_url_unverified saying where to verify one, without the link's path or signature", () => {
    const [problem] = tiktokPhotoProblems(
      ['tiktok'],
      [link('https://cdn.example/tiktok/a.jpg', 0), link('https://other.example/secret/b.jpg?sig=abc', 1)],
      VERIFIED,
    );

    expect(problem).toMatchObject({ code: 'media_url_unverified', field: 'mediaUrls[1]', platform: 'tiktok' });
    expect(problem.message).toContain('https://developers.tiktok.com/doc/set-up-development-configuration');
    expect(problem.message).toContain('TIKTOK_PULL_URL_PREFIXES');
    expect(problem.message).not.toContain('abc');
    expect(problem.message).not.toContain('secret');
  });

  test('when a host only starts like a verified one, then it is not verified; no prefix at all verifies nothing', () => {
    expect(
      tiktokPhotoProblems(['tiktok'], [link('https://cdn.example.evil/tiktok/a.jpg')], ['https://cdn.example'])[0]
        ?.code,
    ).toBe('media_url_unverified');
    expect(tiktokPhotoProblems(['tiktok'], [link('https://cdn.example/tiktok/a.jpg')], [])[0]?.code).toBe(
      'media_url_unverified',
    );
    expect(tiktokPhotoProblems(['tiktok'], [link('https://cdn.example/a.jpg')], ['https://cdn.example'])).toEqual([]);
  });

  test('when the item is a video, or TikTok is not among the platforms, then nothing is judged (videos fall back to FILE_UPLOAD)', () => {
    expect(
      tiktokPhotoProblems(
        ['tiktok'],
        [
          link('https://other.example/v.mp4'),
          { field: 'mediaId', url: 'https://other.example/files/med_2', contentType: 'video/mp4' },
        ],
        VERIFIED,
      ),
    ).toEqual([]);
    expect(tiktokPhotoProblems(['instagram', 'facebook'], [link('https://other.example/a.png')], VERIFIED)).toEqual([]);
  });
});

describe('creating and validating TikTok photo posts', () => {
  let env: TestEnv;
  let system: RunningSystem;
  let account: SeededAccount;

  beforeAll(async () => {
    env = await createTestEnv('posts_tiktok_photos');
    // The test system's TikTok app has verified {base_url}/files/ (TIKTOK_PULL_URL_PREFIXES), where stored media is served.
    system = await startSystem(env);
    account = await system.seedAccount({ platforms: ['tiktok'], plan: 'pro' });
  });
  afterAll(async () => {
    await system?.stop();
    await env?.drop();
  });

  async function call(path: string, body: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(`${system.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  }

  async function upload(bytes: Buffer, name: string, type: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type }), name);
    const res = await fetch(`${system.baseUrl}/api/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.apiKey}` },
      body: form,
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { mediaId: string }).mediaId;
  }

  const photoPost = (media: { mediaId?: string; mediaUrls?: string[] }) => ({
    platforms: ['tiktok'],
    title: 'Photos',
    caption: 'c',
    platformMeta: { tiktok: { privacyLevel: 'SELF_ONLY' } },
    ...media,
  });
  const postsOnRecord = async () =>
    (
      (await fetch(`${system.baseUrl}/api/v1/posts`, { headers: { authorization: `Bearer ${account.apiKey}` } }).then(
        (r) => r.json(),
      )) as { data: unknown[] }
    ).data.length;

  test('when a stored PNG is posted to TikTok, then 400 unsupported_photo_format and nothing is stored; validate reports the same', async () => {
    const png = await upload(PNG, 'pixel.png', 'image/png');
    const before = await postsOnRecord();

    const created = await call('/api/v1/posts', photoPost({ mediaId: png }));
    const validated = await call('/api/v1/posts/validate', photoPost({ mediaId: png }));

    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({
      code: 'unsupported_photo_format',
      error: expect.stringContaining('JPEG or WebP'),
    });
    expect(await postsOnRecord()).toBe(before);
    expect(validated.body.valid).toBe(false);
    expect(validated.body.problems).toContainEqual(
      expect.objectContaining({ code: 'unsupported_photo_format', platform: 'tiktok', field: 'mediaId' }),
    );
  });

  test('when photos are links outside the verified prefixes, then 400 media_url_unverified saying how to verify one; validate reports it', async () => {
    const body = photoPost({ mediaUrls: ['https://cdn.example/a.jpg'] });

    const created = await call('/api/v1/posts', body);
    const validated = await call('/api/v1/posts/validate', body);

    expect(created.status).toBe(400);
    expect(created.body.code).toBe('media_url_unverified');
    expect(created.body.error).toContain('URL properties');
    expect(validated.body.problems).toContainEqual(
      expect.objectContaining({ code: 'media_url_unverified', platform: 'tiktok', field: 'mediaUrls[0]' }),
    );
  });

  test('when a stored JPEG is posted to TikTok, then it is accepted: {base_url}/files/ is under a verified prefix', async () => {
    const jpeg = await upload(aJpeg(), 'photo.jpg', 'image/jpeg');

    const created = await call('/api/v1/posts', photoPost({ mediaId: jpeg }));
    const validated = await call('/api/v1/posts/validate', photoPost({ mediaId: jpeg }));

    expect(created.status).toBe(201);
    expect(
      validated.body.problems.filter((p: { platform?: string; code: string }) =>
        ['unsupported_photo_format', 'media_url_unverified'].includes(p.code),
      ),
    ).toEqual([]);
  });
});
