import { FAST_PUBLISHER_ENV, IMAGE_HEADS, waitFor } from '@postbus/testing';
import { auditTikTok, useSystem } from '../support/use-system';

const ctx = useSystem('pub_system', {
  env: FAST_PUBLISHER_ENV,
  // An audited TikTok client: this post asks for PUBLIC_TO_EVERYONE.
  prepare: auditTikTok,
  account: { platforms: ['instagram', 'youtube', 'tiktok', 'facebook'] },
  mediaServer: true,
});

async function publish(body: Record<string, unknown>): Promise<Record<string, any>[]> {
  const res = await fetch(`${ctx.system.baseUrl}/api/v1/publish`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.account.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const created = (await res.json()) as { postIds: string[] };
  expect(res.status).toBe(201);
  return Promise.all(
    created.postIds.map((id) =>
      waitFor(
        async () => {
          const post = (await (
            await fetch(`${ctx.system.baseUrl}/api/v1/posts/${id}`, {
              headers: { authorization: `Bearer ${ctx.account.apiKey}` },
            })
          ).json()) as Record<string, any>;
          return post.status === 'scheduled' ? undefined : post;
        },
        { timeoutMs: 20_000, what: `post ${id} to leave scheduled` },
      ),
    ),
  );
}

async function requests(platform: string): Promise<any[]> {
  return (await (await fetch(`${ctx.system.sandboxUrl}/__sandbox/requests?platform=${platform}`)).json()) as any[];
}

describe('publishing through the REST API to every platform kind', () => {
  test('when one post goes to Instagram, YouTube, TikTok and Facebook, then each is posted with its permalink and its platformMeta reached the platform', async () => {
    const posts = await publish({
      platforms: ['instagram', 'youtube', 'tiktok', 'facebook'],
      title: 'Launch day',
      caption: 'We launched',
      mediaUrls: [ctx.media.link('launch.mp4', 3000)],
      platformMeta: {
        instagram: { coverUrl: ctx.media.link('cover.jpg', 10) },
        youtube: { thumbnailUrl: ctx.media.link('thumb.png', 20, { head: IMAGE_HEADS.png }) },
        tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE', disableDuet: true, videoCoverTimestampMs: 500 },
        facebook: { coverUrl: ctx.media.link('fb-cover.jpg', 10, { head: IMAGE_HEADS.jpeg }) },
      },
    });

    expect(posts.map((p) => [p.platforms[0], p.status, p.failedReason])).toEqual(
      expect.arrayContaining([
        ['instagram', 'posted', null],
        ['youtube', 'posted', null],
        ['tiktok', 'posted', null],
        ['facebook', 'posted', null],
      ]),
    );
    const permalinks = Object.fromEntries(posts.map((p) => [p.platforms[0], p.permalink]));
    expect(permalinks.instagram).toMatch(/^https:\/\/www\.instagram\.com\/reel\//);
    expect(permalinks.youtube).toMatch(/^https:\/\/www\.youtube\.com\/watch\?v=/);
    expect(permalinks.tiktok).toMatch(/^https:\/\/www\.tiktok\.com\/@.+\/video\/\d+$/);
    expect(permalinks.facebook).toMatch(/^https:\/\/www\.facebook\.com\//);

    expect(
      (await requests('instagram')).find((r) => r.method === 'POST' && r.path.endsWith('/media'))?.body,
    ).toMatchObject({ media_type: 'REELS', cover_url: ctx.media.link('cover.jpg', 10) });
    expect((await requests('youtube')).find((r) => r.path.endsWith('/thumbnails/set'))?.bodyBytes).toBe(20);
    expect((await requests('tiktok')).find((r) => r.path.endsWith('/video/init/'))?.body.post_info).toMatchObject({
      disable_duet: true,
      video_cover_timestamp_ms: 500,
      title: 'We launched',
    });
  });
});
