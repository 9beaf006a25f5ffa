import type { DataSource } from 'typeorm';
import type { AccountSummary, ConnectionHealth, MediaAsset, Principal, Profile } from '@postbus/contracts';
import type { ProfileRef } from './named-profiles';
import type { PostRepository } from './post.repository';
import type { RequestRendition } from '../renditions/request-renditions';

/** What the post use cases need from the world; wired by hand in main.ts. */
export interface PostsPorts {
  ds: DataSource;
  posts: PostRepository;
  /** Profiles of the principal's account, asked of connections. */
  listProfiles(
    principal: Principal,
    q: { platforms: string[]; ids?: string[]; includeInactive?: boolean },
  ): Promise<Profile[]>;
  /** The account's profiles among `ids` (inactive ones too), from the facts posts keeps; absent: asked of connections. */
  namedProfiles?(principal: Principal, ids: string[]): Promise<ProfileRef[]>;
  /** A profile's publishing health (scopes, TikTok audit mode), asked of connections. */
  connectionHealth(principal: Principal, profileId: string): Promise<ConnectionHealth>;
  /** A stored media asset of the principal's account, asked of media. */
  resolveMedia(principal: Principal, mediaId: string): Promise<MediaAsset>;
  /** A rendition of a stored media for a preset (normalize), asked of media: the same one for the same bytes and preset. */
  requestRendition?: RequestRendition;
  /** The principal's account with its plan's quotas, asked of auth. */
  getAccount(principal: Principal): Promise<AccountSummary>;
  /** URL prefixes verified for the TikTok app (TIKTOK_PULL_URL_PREFIXES): TikTok photos must be under one. */
  tiktokPullPrefixes: readonly string[];
  clock(): Date;
  /** How far ahead the occurrences of a recurring post exist as posts (SERIES_HORIZON_DAYS). */
  seriesHorizonDays?: number;
  /** Outbox rows were committed: relay them now rather than at the relay's next poll. */
  announce?(): void;
  /** When a post without scheduledTime is due: the next scheduler tick. */
  nextTick(now: Date): Date;
}
