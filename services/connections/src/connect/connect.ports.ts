import type { Database } from '@postbus/kit';
import type { WithdrawFromPosts } from '../profiles/profile-changed';
import type { ProfileRepository } from '../profiles/profile.repository';
import type { PlatformClients } from '../platforms/platform-clients';
import type { TokenVault } from '../vault/token-vault';
import type { ConnectionRequestRepository } from './connection-request.repository';

/** What the handoff use cases work with, wired in main.ts. */
export interface ConnectPorts {
  db: Database;
  requests: ConnectionRequestRepository;
  profiles: ProfileRepository;
  vault: TokenVault;
  clients: PlatformClients;
  clock(): Date;
  /** The {base_url}: connect links and redirect URIs are under it. */
  baseUrl: string;
  linkTtlSeconds: number;
  /** Called after a transaction wrote outbox rows. */
  announced(): void;
  withdrawFromPosts: WithdrawFromPosts;
}

export { AUTHORIZATION_WINDOW_MS } from './authorization-window';

export const redirectUriFor = (baseUrl: string, platform: string) => `${baseUrl}/oauth/callback/${platform}`;
