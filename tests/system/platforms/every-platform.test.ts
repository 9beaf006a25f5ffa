import { PLATFORMS } from '@postbus/contracts';
import { callSandbox, waitFor } from '@postbus/testing';
import { api, publishedOn, uploadFile } from '../support/posts-api';
import { auditTikTok, useSystem } from '../support/use-system';

const ctx = useSystem('every_platform', {
  files: true,
  // An audited TikTok client, as a live one is.
  prepare: auditTikTok,
  account: { platforms: [...PLATFORMS], plan: 'pro' },
});
beforeAll(async () => {
  // A pin goes to a board: the sandbox's Pinterest user gets one, as a real account has.
  const pinterest = ctx.account.profiles.find((p) => p.platform === 'pinterest');
  if (pinterest)
    await callSandbox(ctx.system.sandboxUrl, 'POST', '/pinterest/boards', {
      handle: pinterest.handle,
      name: 'Everywhere',
    });
});

const call = (path: string, init: { method?: string; body?: unknown } = {}) =>
  api(ctx.system, path, { ...init, key: ctx.account.apiKey });

/** What each platform needs of a post beyond its text and video, as a caller would send it. */
function platformMetaFor(boardId: string | undefined): Record<string, unknown> {
  return {
    tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE' },
    ...(boardId && { pinterest: { boardId } }),
  };
}

describe('one post to every platform at once', () => {
  test(`when one video post names all ${PLATFORMS.length} platforms with normalize, then each reaches posted with a permalink, once`, async () => {
    const { mediaId } = await uploadFile(ctx.system, ctx.account.apiKey, ctx.files.portraitMp4, 'video/mp4');
    const pinterest = ctx.account.profiles.find((p) => p.platform === 'pinterest');
    const boards = pinterest ? await call(`/api/v1/connections/${pinterest.id}/pinterest/boards`) : undefined;
    const caption = `everywhere at once ${Date.now()}`;
    const created = await call('/api/v1/publish', {
      method: 'POST',
      body: {
        platforms: [...PLATFORMS],
        mediaId,
        caption,
        title: 'Everywhere at once',
        normalize: true,
        platformMeta: platformMetaFor(boards?.body?.boards?.[0]?.id),
      },
    });
    expect({ status: created.status, body: created.status === 201 ? undefined : created.body }).toEqual({
      status: 201,
    });
    expect(created.body.postIds).toHaveLength(PLATFORMS.length);

    const posts = await waitFor(
      async () => {
        const all = await Promise.all(
          (created.body.postIds as string[]).map(async (id) => (await call(`/api/v1/posts/${id}`)).body),
        );
        return all.every((p) => ['posted', 'failed'].includes(p.status)) ? all : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 250, what: 'every platform to publish' },
    );
    const byPlatform = Object.fromEntries(posts.map((p) => [p.platforms[0], p]));
    for (const platform of PLATFORMS) {
      expect({
        platform,
        status: byPlatform[platform].status,
        failedReason: byPlatform[platform].failedReason,
      }).toEqual({
        platform,
        status: 'posted',
        failedReason: null,
      });
      expect({ platform, permalink: byPlatform[platform].permalink }).toEqual({
        platform,
        permalink: expect.stringMatching(/^https:\/\//),
      });
      const live = (await publishedOn(ctx.system, platform)).filter((item) => item.text.includes(caption));
      expect({ platform, live: live.length }).toEqual({ platform, live: 1 });
    }
  });
});
