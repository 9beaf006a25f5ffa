import type { DataSource } from 'typeorm';
import {
  AppError,
  DEFAULT_SUGGESTED_SLOTS,
  SUGGEST_MIN_POSTS,
  type PostEngagement,
  type Principal,
  type Profile,
} from '@postbus/contracts';
import { openDataSource } from '@postbus/kit';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { AnalyticsRepository } from '../src/analytics/analytics.repository';
import { migrations } from '../src/migrations';
import { zoneOf } from '../src/posts/local-time';
import { PostRepository } from '../src/posts/post.repository';
import { engagementScore, rankWeeklyHours } from '../src/schedules/suggest-slots.rules';
import { suggestSlots, type SuggestPorts } from '../src/schedules/suggest-slots.use-case';
import { aPost } from './post-builder';

let env: TestEnv;
let ds: DataSource;

const ACCOUNT = 'acc_suggest';
const NOW = new Date('2027-06-30T12:00:00Z');
const principal: Principal = {
  accountId: ACCOUNT,
  userId: 'usr_s',
  credential: { type: 'api_key', id: 'key_s' },
  scopes: ['post:read'],
  profileIds: 'all',
};
const profile = (id: string, platform = 'threads'): Profile => ({ id, platform, status: 'active' }) as Profile;
const engagement = (postId: string, likes: number | null, extra: Partial<PostEngagement> = {}): PostEngagement => ({
  postId,
  platform: 'threads',
  views: null,
  likes,
  comments: null,
  shares: null,
  collectedAt: NOW.toISOString(),
  stage: 0,
  ...extra,
});

/** Posts published on the profile at the given instants; each earns `likes`. */
async function publish(
  profileId: string,
  items: { at: string; likes: number }[],
  figures: Map<string, PostEngagement>,
): Promise<void> {
  const rows = items.map(({ at }) => ({
    ...aPost().forAccount(ACCOUNT).withStatus('posted').build(),
    profile_id: profileId,
    scheduled_time: new Date(at),
  }));
  await ds.transaction((m) => new PostRepository(ds).insertMany(m, rows));
  rows.forEach((r, i) => figures.set(r.id, engagement(r.id, items[i].likes)));
}

function portsFor(profiles: Profile[], figures: Map<string, PostEngagement>, asked: string[][] = []): SuggestPorts {
  return {
    analytics: new AnalyticsRepository(ds),
    listProfiles: async (_p, q) => profiles.filter((p) => !q.ids || q.ids.includes(p.id)),
    engagementOf: async (_p, ids) => (asked.push(ids), ids.flatMap((id) => figures.get(id) ?? [])),
    clock: () => NOW,
  };
}

beforeAll(async () => {
  env = await createTestEnv('posts_suggest');
  ds = await openDataSource({ url: env.databaseUrl, schema: 'posts', migrations, poolSize: 2 });
});
afterAll(async () => {
  await ds?.destroy();
  await env?.drop();
});

describe('ranking weekly hours by engagement', () => {
  const berlin = zoneOf('Europe/Berlin')!;

  test('when posts went out at different weekly hours, then the best averages win, read in the zone and listed by weekday', () => {
    const posts = [
      { id: 'a', publishedAt: new Date('2027-06-07T07:10:00Z') }, // Monday 09:10 in Berlin (CEST)
      { id: 'b', publishedAt: new Date('2027-06-14T07:50:00Z') }, // Monday 09:50
      { id: 'c', publishedAt: new Date('2027-06-09T16:00:00Z') }, // Wednesday 18:00
      { id: 'd', publishedAt: new Date('2027-06-11T04:00:00Z') }, // Friday 06:00
    ];
    const scores = new Map([
      ['a', 10],
      ['b', 30],
      ['c', 50],
      ['d', 5],
    ]);
    expect(rankWeeklyHours(posts, scores, berlin, 2)).toEqual([
      { day: 'mon', time: '09:00', posts: 2, averageEngagement: 20 },
      { day: 'wed', time: '18:00', posts: 1, averageEngagement: 50 },
    ]);
  });

  test('when a post has no figures yet, then it does not count', () => {
    const posts = [{ id: 'a', publishedAt: new Date('2027-06-07T07:10:00Z') }];
    expect(rankWeeklyHours(posts, new Map(), berlin, 3)).toEqual([]);
  });

  test('when a platform reports interactions, then they are the score; where it reports only views, the views are', () => {
    expect(engagementScore(engagement('p', 3, { comments: 2, shares: 1, views: 900 }))).toBe(6);
    expect(engagementScore(engagement('p', null, { views: 900 }))).toBe(900);
    expect(engagementScore(engagement('p', null))).toBeUndefined();
  });
});

describe('suggesting slots for a profile', () => {
  test('when the profile has enough measured posts, then the slots come from its history', async () => {
    const figures = new Map<string, PostEngagement>();
    const items = Array.from({ length: SUGGEST_MIN_POSTS }, (_, i) => ({
      at: `2027-06-${String(7 + (i % 2) * 2).padStart(2, '0')}T${i % 2 ? '16' : '07'}:00:00Z`,
      likes: i % 2 ? 100 : 1,
    }));
    await publish('prf_history', items, figures);
    const answer = await suggestSlots(portsFor([profile('prf_history')], figures), principal, {
      profileId: 'prf_history',
      timezone: 'Europe/Berlin',
      count: '1',
    });
    expect(answer).toEqual({
      profileId: 'prf_history',
      platform: 'threads',
      timezone: 'Europe/Berlin',
      basis: 'history',
      reason: null,
      postsAnalyzed: SUGGEST_MIN_POSTS,
      minimumPosts: SUGGEST_MIN_POSTS,
      slots: [{ day: 'wed', time: '18:00', posts: SUGGEST_MIN_POSTS / 2, averageEngagement: 100 }],
    });
  });

  test('when the profile has too few measured posts, then the platform defaults come back with the reason', async () => {
    const figures = new Map<string, PostEngagement>();
    await publish('prf_short', [{ at: '2027-06-20T10:00:00Z', likes: 4 }], figures);
    const answer = await suggestSlots(portsFor([profile('prf_short', 'tiktok')], figures), principal, {
      profileId: 'prf_short',
    });
    expect(answer).toMatchObject({
      basis: 'defaults',
      postsAnalyzed: 1,
      timezone: 'UTC',
      platform: 'tiktok',
      reason: expect.stringContaining(`${SUGGEST_MIN_POSTS} are needed`),
    });
    expect(answer.slots).toEqual(
      DEFAULT_SUGGESTED_SLOTS.tiktok.map((s) => ({ ...s, posts: null, averageEngagement: null })),
    );
  });

  test('when posts are older than the history window or of another profile, then they are not read', async () => {
    const figures = new Map<string, PostEngagement>();
    await publish('prf_old', [{ at: '2027-01-01T10:00:00Z', likes: 4 }], figures);
    const asked: string[][] = [];
    const answer = await suggestSlots(portsFor([profile('prf_old')], figures, asked), principal, {
      profileId: 'prf_old',
    });
    expect(answer.postsAnalyzed).toBe(0);
    expect(asked.flat()).toEqual([]);
  });

  test('when the timezone, the count or the profile is wrong, then it is refused with its code', async () => {
    const ports = portsFor([profile('prf_x')], new Map());
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: AppError) => ({ code: e.code, details: e.details }),
      );
    expect(await refusal(suggestSlots(ports, principal, { profileId: 'prf_x', timezone: 'Mars/Olympus' }))).toEqual({
      code: 'validation_error',
      details: { field: 'timezone' },
    });
    expect(await refusal(suggestSlots(ports, principal, { profileId: 'prf_x', count: 22 }))).toEqual({
      code: 'validation_error',
      details: { field: 'count' },
    });
    expect((await refusal(suggestSlots(ports, principal, { profileId: 'prf_missing' })))?.code).toBe(
      'invalid_profile_ids',
    );
    expect(
      (await refusal(suggestSlots(ports, { ...principal, profileIds: ['prf_other'] }, { profileId: 'prf_x' })))?.code,
    ).toBe('profile_scope_denied');
  });
});
