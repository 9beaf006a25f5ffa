import { createHash } from 'node:crypto';
import { aJpeg } from '@postbus/testing';
import { startSandbox, type RunningSandbox } from '../src/main';
import { call, control } from './emulator-client';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

const on = (instance: string, path: string) => `${sandbox.url}/mastodon/${instance}${path}`;

async function mastodonUser(handle: string, instance = 'mastodon.example') {
  const res = await control(sandbox, 'POST', '/users', { platform: 'mastodon', handle, instance });
  expect(res.status).toBe(201);
  return res.body as { userId: string; accessToken: string; handle: string };
}

function multipart(fields: Record<string, string>, file?: { bytes: Uint8Array; type: string }) {
  const boundary = 'testboundary42';
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="f"\r\ncontent-type: ${file.type}\r\n\r\n`,
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: new Uint8Array(Buffer.concat(parts)),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const postStatus = (instance: string, token: string, form: URLSearchParams, key?: string) =>
  call(on(instance, '/api/v1/statuses'), {
    token,
    body: form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(key && { 'idempotency-key': key }) },
  });

describe('apps and OAuth on an instance', () => {
  test('when an app registers and a user authorizes it with PKCE, then the code trades once for a token that reads the account; a wrong verifier or a second use is invalid_grant', async () => {
    const user = await mastodonUser('oauth_user', 'social.example');
    const redirect = 'https://postbus.example/oauth/callback/mastodon';
    const app = await call(on('social.example', '/api/v1/apps'), {
      form: { client_name: 'Postbus', redirect_uris: redirect, scopes: 'write:statuses write:media read:accounts' },
    });
    expect(app).toMatchObject({
      status: 200,
      body: {
        name: 'Postbus',
        redirect_uri: redirect,
        client_id: expect.any(String),
        client_secret: expect.any(String),
      },
    });
    const verifier = 'v'.repeat(50);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: app.body.client_id,
      redirect_uri: redirect,
      scope: 'write:statuses write:media read:accounts',
      state: 's1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const page = await call(on('social.example', `/oauth/authorize?${query.toString()}`));
    expect(page.status).toBe(200);
    expect(page.body).toContain('Authorize as @oauth_user');

    const approve = await fetch(on('social.example', '/oauth/authorize'), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `${query.toString()}&user_id=${user.userId}`,
    });
    expect(approve.status).toBe(302);
    const back = new URL(approve.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(redirect);
    expect(back.searchParams.get('state')).toBe('s1');
    const code = back.searchParams.get('code')!;

    const exchange = (code_verifier: string) =>
      call(on('social.example', '/oauth/token'), {
        form: {
          grant_type: 'authorization_code',
          code,
          client_id: app.body.client_id,
          client_secret: app.body.client_secret,
          redirect_uri: redirect,
          code_verifier,
        },
      });
    expect(await exchange('w'.repeat(50))).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const token = await exchange(verifier);
    expect(token).toMatchObject({
      status: 200,
      body: { token_type: 'Bearer', scope: 'write:statuses write:media read:accounts' },
    });
    expect(await exchange(verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const me = await call(on('social.example', '/api/v1/accounts/verify_credentials'), {
      token: token.body.access_token,
    });
    expect(me).toMatchObject({
      status: 200,
      body: { id: user.userId, username: 'oauth_user', url: 'https://social.example/@oauth_user' },
    });
    // The token belongs to its instance only.
    expect(
      await call(on('mastodon.example', '/api/v1/accounts/verify_credentials'), { token: token.body.access_token }),
    ).toMatchObject({ status: 401, body: { error: 'The access token is invalid' } });
  });

  test('when an authorize link names a redirect URI or scope the app did not register, then the instance refuses it', async () => {
    const app = await call(on('mastodon.example', '/api/v1/apps'), {
      form: { client_name: 'Postbus', redirect_uris: 'https://a.example/cb', scopes: 'write:statuses' },
    });
    const base = { response_type: 'code', client_id: app.body.client_id, state: 's' };
    expect(
      await call(
        on(
          'mastodon.example',
          `/oauth/authorize?${new URLSearchParams({ ...base, redirect_uri: 'https://b.example/cb', scope: 'write:statuses' }).toString()}`,
        ),
      ),
    ).toMatchObject({ status: 400, body: { error: 'invalid_redirect_uri' } });
    expect(
      await call(
        on(
          'mastodon.example',
          `/oauth/authorize?${new URLSearchParams({ ...base, redirect_uri: 'https://a.example/cb', scope: 'write:statuses read:accounts' }).toString()}`,
        ),
      ),
    ).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    expect(
      await call(on('mastodon.example', '/api/v1/apps'), {
        form: { client_name: 'Postbus', redirect_uris: 'not a uri' },
      }),
    ).toMatchObject({ status: 422 });
  });
});

describe('statuses', () => {
  test('when a status is posted, then it is stored with its settings and listed with its permalink on its instance', async () => {
    const user = await mastodonUser('poster');
    const form = new URLSearchParams({
      status: 'Hello fediverse',
      spoiler_text: 'greeting',
      visibility: 'unlisted',
      language: 'en',
    });
    const res = await postStatus('mastodon.example', user.accessToken, form);
    expect(res).toMatchObject({
      status: 200,
      body: {
        id: expect.stringMatching(/^\d+$/),
        url: `https://mastodon.example/@poster/${res.body.id}`,
        spoiler_text: 'greeting',
        visibility: 'unlisted',
        language: 'en',
      },
    });
    const published = (await control(sandbox, 'GET', '/published?platform=mastodon')).body as {
      id: string;
      permalink: string;
      details: Record<string, unknown>;
    }[];
    expect(published.find((p) => p.id === res.body.id)).toMatchObject({
      permalink: `https://mastodon.example/@poster/${res.body.id}`,
      details: { instance: 'mastodon.example', spoilerText: 'greeting', visibility: 'unlisted' },
    });
  });

  test('when the text is counted, then a URL counts 23 and a remote mention its username only: 500 such characters pass, 501 are refused', async () => {
    const user = await mastodonUser('counter');
    const url = `https://example.com/${'a'.repeat(200)}`;
    // 23 (URL) + 1 + 6 ("@alice", domain not counted) + 1 + 469 = 500
    const fits = `${url} @alice@far.example.org ${'x'.repeat(469)}`;
    expect((await postStatus('mastodon.example', user.accessToken, new URLSearchParams({ status: fits }))).status).toBe(
      200,
    );
    const over = await postStatus('mastodon.example', user.accessToken, new URLSearchParams({ status: `${fits}y` }));
    expect(over).toMatchObject({
      status: 422,
      body: { error: 'Validation failed: Text character limit of 500 exceeded' },
    });
    // The content warning counts too.
    expect(
      (
        await postStatus(
          'mastodon.example',
          user.accessToken,
          new URLSearchParams({ status: 'x'.repeat(495), spoiler_text: 'sixsix' }),
        )
      ).status,
    ).toBe(422);
  });

  test('when a poll breaks the rules, then each is refused the way Mastodon words it', async () => {
    const user = await mastodonUser('pollster');
    const poll = (options: string[], expires: string) => {
      const form = new URLSearchParams({ status: 'Vote' });
      for (const o of options) form.append('poll[options][]', o);
      form.append('poll[expires_in]', expires);
      return postStatus('mastodon.example', user.accessToken, form);
    };
    expect((await poll(['a'], '3600')).body.error).toBe('Validation failed: Poll must have at least 2 options');
    expect((await poll(['a', 'b', 'c', 'd', 'e'], '3600')).body.error).toBe(
      'Validation failed: Poll cannot have more than 4 options',
    );
    expect((await poll(['a', 'b'.repeat(51)], '3600')).body.error).toBe(
      'Validation failed: Poll options cannot be longer than 50 characters',
    );
    expect((await poll(['a', 'b'], '299')).body.error).toBe('Validation failed: Poll duration too short');
    expect((await poll(['a', 'b'], '2629747')).body.error).toBe('Validation failed: Poll duration too long');
    expect(await poll(['a', 'b'], '300')).toMatchObject({
      status: 200,
      body: { poll: { multiple: false, options: [{ title: 'a' }, { title: 'b' }] } },
    });
  });

  test('when the same Idempotency-Key is sent twice, then the second answer is the first status and nothing new is posted', async () => {
    const user = await mastodonUser('repeater');
    const first = await postStatus(
      'mastodon.example',
      user.accessToken,
      new URLSearchParams({ status: 'once' }),
      'key-1',
    );
    const again = await postStatus(
      'mastodon.example',
      user.accessToken,
      new URLSearchParams({ status: 'once' }),
      'key-1',
    );
    expect(again).toMatchObject({ status: 200, body: { id: first.body.id } });
    const mine = ((await control(sandbox, 'GET', '/published?platform=mastodon')).body as { userId: string }[]).filter(
      (p) => p.userId === user.userId,
    );
    expect(mine).toHaveLength(1);
  });

  test('when a fault is queued for publish, then the status call answers it (422 by default, 429 with X-RateLimit-Reset for a throttle)', async () => {
    const user = await mastodonUser('faulty');
    await control(sandbox, 'POST', '/faults', { platform: 'mastodon', mode: 'error', operation: 'publish' });
    expect(await postStatus('mastodon.example', user.accessToken, new URLSearchParams({ status: 'x' }))).toMatchObject({
      status: 422,
    });
    await control(sandbox, 'POST', '/faults', { platform: 'mastodon', mode: 'throttle', operation: 'publish' });
    const throttled = await postStatus('mastodon.example', user.accessToken, new URLSearchParams({ status: 'x' }));
    expect(throttled.status).toBe(429);
    expect(Date.parse(throttled.headers.get('x-ratelimit-reset')!)).toBeGreaterThan(0);
  });
});

describe('media', () => {
  test('when media is still processing, then the upload answers 202 with url null, the status refuses it, and it is attached once ready', async () => {
    let now = Date.now();
    const clocked = await startSandbox({ port: 0, now: () => now, mastodon: { mediaProcessingMs: 5_000 } });
    try {
      const res = await fetch(`${clocked.url}/__sandbox/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ platform: 'mastodon', handle: 'slowpoke' }),
      });
      const user = (await res.json()) as { accessToken: string };
      const upload = multipart({ description: 'A red square' }, { bytes: aJpeg(2048), type: 'image/jpeg' });
      const media = await call(`${clocked.url}/mastodon/mastodon.example/api/v2/media`, {
        token: user.accessToken,
        ...upload,
      });
      expect(media).toMatchObject({ status: 202, body: { type: 'image', url: null, description: 'A red square' } });
      expect(
        await call(`${clocked.url}/mastodon/mastodon.example/api/v1/media/${media.body.id}`, {
          token: user.accessToken,
        }),
      ).toMatchObject({ status: 206, body: { url: null } });
      const early = await call(`${clocked.url}/mastodon/mastodon.example/api/v1/statuses`, {
        token: user.accessToken,
        form: { status: 'pic', 'media_ids[]': media.body.id },
      });
      expect(early).toMatchObject({
        status: 422,
        body: { error: 'Cannot attach files that have not finished processing. Try again in a moment!' },
      });
      now += 5_000;
      expect(
        await call(`${clocked.url}/mastodon/mastodon.example/api/v1/media/${media.body.id}`, {
          token: user.accessToken,
        }),
      ).toMatchObject({ status: 200, body: { url: expect.stringContaining('https://mastodon.example/') } });
      const posted = await call(`${clocked.url}/mastodon/mastodon.example/api/v1/statuses`, {
        token: user.accessToken,
        form: { status: 'pic', 'media_ids[]': media.body.id },
      });
      expect(posted).toMatchObject({
        status: 200,
        body: { media_attachments: [{ id: media.body.id, description: 'A red square' }] },
      });
    } finally {
      await clocked.close();
    }
  });

  test("when the platform's processing delay is set through the control API, then uploads answer 202 until it passes", async () => {
    const user = await mastodonUser('delayed');
    await control(sandbox, 'POST', '/settings', { platform: 'mastodon', processingDelayMs: 600_000 });
    try {
      const media = await call(on('mastodon.example', '/api/v2/media'), {
        token: user.accessToken,
        ...multipart({}, { bytes: aJpeg(1024), type: 'image/jpeg' }),
      });
      expect(media).toMatchObject({ status: 202, body: { url: null } });
    } finally {
      await control(sandbox, 'POST', '/settings', { platform: 'mastodon', processingDelayMs: 0 });
    }
  });

  test('when a status carries five attachments or media and a poll, then it is refused', async () => {
    const user = await mastodonUser('hoarder');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (
          await call(on('mastodon.example', '/api/v2/media'), {
            token: user.accessToken,
            ...multipart({}, { bytes: aJpeg(1024), type: 'image/jpeg' }),
          })
        ).body.id,
      );
    const five = new URLSearchParams({ status: 'many' });
    for (const id of ids) five.append('media_ids[]', id);
    expect(await postStatus('mastodon.example', user.accessToken, five)).toMatchObject({
      status: 422,
      body: { error: 'Cannot attach more than 4 files' },
    });
    const withPoll = new URLSearchParams({
      status: 'both',
      'media_ids[]': ids[0],
      'poll[options][]': 'a',
      'poll[expires_in]': '600',
    });
    withPoll.append('poll[options][]', 'b');
    expect(await postStatus('mastodon.example', user.accessToken, withPoll)).toMatchObject({
      status: 422,
      body: { error: 'Cannot attach files to a status with a poll' },
    });
  });
});

describe("a video's thumbnail", () => {
  /** A video upload with a `thumbnail` file part. */
  function withThumbnail(thumbnail: Buffer, type: string) {
    const boundary = 'thumbboundary7';
    const part = (name: string, contentType: string, bytes: Buffer) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="${name}"\r\ncontent-type: ${contentType}\r\n\r\n`,
        ),
        bytes,
        Buffer.from('\r\n'),
      ]);
    return {
      body: new Uint8Array(
        Buffer.concat([
          part('file', 'video/mp4', Buffer.alloc(4096, 7)),
          part('thumbnail', type, thumbnail),
          Buffer.from(`--${boundary}--\r\n`),
        ]),
      ),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    };
  }

  test('when a video comes with a JPEG thumbnail, then the attachment has a preview and the status lists it', async () => {
    const user = await mastodonUser('thumbed');
    const media = await call(on('mastodon.example', '/api/v2/media'), {
      token: user.accessToken,
      ...withThumbnail(aJpeg(3000), 'image/jpeg'),
    });
    expect(media).toMatchObject({
      status: 200,
      body: { type: 'video', preview_url: expect.stringContaining(`/thumbnails/${media.body.id}/`) },
    });
    const posted = await postStatus(
      'mastodon.example',
      user.accessToken,
      new URLSearchParams({ status: 'a clip', 'media_ids[]': media.body.id }),
    );
    expect(posted.status).toBe(200);
    const listed = (await control(sandbox, 'GET', '/published?platform=mastodon')).body as any[];
    expect(listed.find((p) => p.id === posted.body.id).details.thumbnails).toEqual([
      { contentType: 'image/jpeg', size: aJpeg(3000).length },
    ]);
  });

  test('when the thumbnail is not an image (whatever its part says) or is larger than the image limit, then the instance answers 422', async () => {
    const user = await mastodonUser('unthumbed');
    const upload = (bytes: Buffer, type: string) =>
      call(on('mastodon.example', '/api/v2/media'), { token: user.accessToken, ...withThumbnail(bytes, type) });

    const notImage = await upload(Buffer.alloc(2048, 1), 'image/jpeg');
    const tooLarge = await upload(Buffer.concat([aJpeg(2048), Buffer.alloc(16_777_216)]), 'image/jpeg');

    expect(notImage).toMatchObject({
      status: 422,
      body: { error: 'Validation failed: Thumbnail content type is invalid' },
    });
    expect(tooLarge).toMatchObject({
      status: 422,
      body: { error: expect.stringMatching(/^Validation failed: Thumbnail file size must be less than \d+ Bytes$/) },
    });
  });
});
