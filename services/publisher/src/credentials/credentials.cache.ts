import type { PostDue } from '@postbus/contracts';
import type { Credentials, CredentialsPort } from './credentials.port';

/**
 * Keeps each profile's credentials for a short while, so a burst of posts for one profile
 * asks connections once. An entry goes as soon as the platform refuses its token (refresh),
 * the profile is disconnected (connection.revoked), or it is older than `ttlMs`.
 */
export class CachedCredentials {
  private readonly entries = new Map<string, { creds: Credentials; at: number }>();

  constructor(
    private readonly port: CredentialsPort,
    private readonly ttlMs: number,
    private readonly max = 10_000,
  ) {}

  async get(job: PostDue): Promise<Credentials> {
    const key = this.key(job.accountId, job.profileId);
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.creds;
    const creds = await this.port.get(job);
    this.remember(key, creds);
    return creds;
  }

  async refresh(job: PostDue): Promise<Credentials> {
    this.forget(job.accountId, job.profileId);
    const creds = await this.port.refresh(job);
    this.remember(this.key(job.accountId, job.profileId), creds);
    return creds;
  }

  forget(accountId: string, profileId: string): void {
    this.entries.delete(this.key(accountId, profileId));
  }

  private remember(key: string, creds: Credentials): void {
    if (this.ttlMs <= 0 || creds.status !== 'active') return;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { creds, at: Date.now() });
  }

  private key(accountId: string, profileId: string): string {
    return `${accountId}/${profileId}`;
  }
}
