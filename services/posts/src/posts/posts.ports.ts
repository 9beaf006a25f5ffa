import type { DataSource } from 'typeorm';
import type { AccountSummary, ConnectionHealth, MediaAsset, Principal, Profile } from '@postbus/contracts';
import type { PostRepository } from './post.repository';

/** What the post use cases need from the world; wired by hand in main.ts. */
export interface PostsPorts {
  ds: DataSource;
  posts: PostRepository;
  /** Profiles of the principal's account, asked of connections. */
  listProfiles(principal: Principal, q: { platforms: string[]; ids?: string[] }): Promise<Profile[]>;
  /** A profile's publishing health (scopes, TikTok audit mode), asked of connections. */
  connectionHealth(principal: Principal, profileId: string): Promise<ConnectionHealth>;
  /** A stored media asset of the principal's account, asked of media. */
  resolveMedia(principal: Principal, mediaId: string): Promise<MediaAsset>;
  /** The principal's account with its plan's quotas, asked of auth. */
  getAccount(principal: Principal): Promise<AccountSummary>;
  /** URL prefixes verified for the TikTok app (TIKTOK_PULL_URL_PREFIXES): TikTok photos must be under one. */
  tiktokPullPrefixes: readonly string[];
  clock(): Date;
  /** When a post without scheduledTime is due: the next scheduler tick. */
  nextTick(now: Date): Date;
}
