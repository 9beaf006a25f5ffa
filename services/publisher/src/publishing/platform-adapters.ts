import type { Logger } from '@postbus/kit';
import type { AdapterConfig } from './adapters/adapter-config';
import { facebookAdapter } from './adapters/facebook.adapter';
import { instagramAdapter } from './adapters/instagram.adapter';
import type { PlatformAdapter } from './adapters/platform-adapter';
import { threadsAdapter } from './adapters/threads.adapter';
import { tiktokAdapter } from './adapters/tiktok.adapter';
import { youtubeAdapter } from './adapters/youtube.adapter';
import { blueskyAdapter } from './adapters/bluesky.adapter';
import { mastodonAdapter } from './adapters/mastodon.adapter';
import { blueskyFollowUps } from './follow-ups/bluesky-follow-ups';
import { linkedinAdapter } from './adapters/linkedin.adapter';
import { pinterestAdapter } from './adapters/pinterest.adapter';
import { xAdapter } from './adapters/x.adapter';
import { xFollowUps } from './follow-ups/x-follow-ups';
import {
  facebookFollowUps,
  instagramFollowUps,
  threadsFollowUps,
  youtubeFollowUps,
} from './follow-ups/follow-up-senders';

export type { AdapterConfig } from './adapters/adapter-config';

/** One adapter per platform, each turning a due post into that platform's calls (and its first comment or reply chain, where the platform takes them). */
export function createAdapters(cfg: AdapterConfig, logger: Logger): Record<string, PlatformAdapter> {
  return {
    instagram: Object.assign(instagramAdapter(cfg), { followUps: instagramFollowUps(cfg) }),
    facebook: Object.assign(facebookAdapter(cfg), { followUps: facebookFollowUps(cfg) }),
    threads: Object.assign(threadsAdapter(cfg), { followUps: threadsFollowUps(cfg) }),
    // TikTok's API has no comments: a post asking for one is refused when it is created.
    tiktok: tiktokAdapter(cfg),
    youtube: Object.assign(youtubeAdapter(cfg, logger.child({ platform: 'youtube' })), {
      followUps: youtubeFollowUps(cfg),
    }),
    bluesky: Object.assign(blueskyAdapter(cfg), { followUps: blueskyFollowUps(cfg) }),
    mastodon: mastodonAdapter(cfg),
    linkedin: linkedinAdapter(cfg),
    x: Object.assign(xAdapter(cfg), { followUps: xFollowUps(cfg) }),
    pinterest: pinterestAdapter(cfg),
  };
}
