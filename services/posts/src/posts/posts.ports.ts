import type { DataSource } from 'typeorm';
import type { AccountSummary, MediaAsset, Principal, Profile } from '@postbus/contracts';
import type { PostRepository } from './post.repository';

/** What the post use cases need from the world; wired by hand in main.ts. */
export interface PostsPorts {
  ds: DataSource;
  posts: PostRepository;
  /** Profiles of the principal's account, asked of connections. */
  listProfiles(principal: Principal, q: { platforms: string[]; ids?: string[] }): Promise<Profile[]>;
  /** A stored media asset of the principal's account, asked of media. */
  resolveMedia(principal: Principal, mediaId: string): Promise<MediaAsset>;
  /** The principal's account with its plan's quotas, asked of auth. */
  getAccount(principal: Principal): Promise<AccountSummary>;
  clock(): Date;
  /** When a post without scheduledTime is due: the next scheduler tick. */
  nextTick(now: Date): Date;
}
