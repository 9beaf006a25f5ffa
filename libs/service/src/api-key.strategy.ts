import { Events, type EventEnvelope, type Principal } from '@postbus/contracts';
import type { EventConsumer } from '@postbus/bus';

/** Auth's events after which a cached verdict is stale; every replica hears them on a queue of its own (PrincipalCache.hearStaleVerdicts). */
export const STALE_VERDICT_EVENTS = [
  Events.authKeyRevoked.name,
  Events.authGrantRevoked.name,
  Events.authAccountChanged.name,
];

/** Verdicts of auth, kept briefly so a busy key costs one RPC per AUTH_CACHE_MS, dropped on revocation. */
export class PrincipalCache {
  private readonly entries = new Map<string, { principal: Principal; until: number }>();
  constructor(private readonly ttlMs: number) {}

  get(hash: string): Principal | undefined {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    if (e.until < Date.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    return e.principal;
  }
  set(hash: string, principal: Principal): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size > 10_000) this.entries.clear();
    this.entries.set(hash, { principal, until: Date.now() + this.ttlMs });
  }
  evictKey(keyId: string): void {
    for (const [hash, e] of this.entries) if (e.principal.credential.id === keyId) this.entries.delete(hash);
  }
  evictAccount(accountId: string, credentialType?: Principal['credential']['type']): void {
    for (const [hash, e] of this.entries)
      if (e.principal.accountId === accountId && (!credentialType || e.principal.credential.type === credentialType))
        this.entries.delete(hash);
  }

  /**
   * Has `consumer` drop what each of STALE_VERDICT_EVENTS makes stale: a revoked key; the account's
   * OAuth verdicts when a grant is revoked (a verdict names its access token, not its grant;
   * revocations are rare); every verdict of an account that was disabled or changed plan.
   */
  hearStaleVerdicts(consumer: EventConsumer): EventConsumer {
    return consumer
      .on(Events.authKeyRevoked, (event) => this.evictKey(event.data.keyId))
      .on(Events.authGrantRevoked, (event) => this.evictAccount(event.data.accountId, 'oauth'))
      .on(Events.authAccountChanged, (event) => this.evictAccount(event.data.accountId));
  }

  /** What hearStaleVerdicts does, for a consumer that receives the events untyped. */
  forget(event: EventEnvelope): void {
    const data = (event.data ?? {}) as { keyId?: unknown; accountId?: unknown };
    if (event.name === Events.authKeyRevoked.name && typeof data.keyId === 'string') this.evictKey(data.keyId);
    else if (event.name === Events.authGrantRevoked.name && typeof data.accountId === 'string')
      this.evictAccount(data.accountId, 'oauth');
    else if (event.name === Events.authAccountChanged.name && typeof data.accountId === 'string')
      this.evictAccount(data.accountId);
  }
}
