import { LEGACY_WEBHOOK_ACCESS, type Principal } from '@postbus/contracts';

/** What a key's row says about its scopes: as issued, and whether it predates the webhook scopes. */
export interface KeyScopes {
  scopes: string[];
  legacy_webhook_scopes: boolean;
}

/**
 * The scopes a key holds at `now`. A key issued while post:read opened webhooks keeps
 * webhook:read and webhook:write until the sunset, named in `deprecatedScopes` so that answers
 * using them can say so; after the sunset it holds what it was issued with.
 */
export function scopesAt(key: KeyScopes, now: Date): Pick<Principal, 'scopes' | 'deprecatedScopes'> {
  if (!key.legacy_webhook_scopes || now.getTime() >= Date.parse(LEGACY_WEBHOOK_ACCESS.sunset))
    return { scopes: key.scopes };
  const added = LEGACY_WEBHOOK_ACCESS.scopes.filter((s) => !key.scopes.includes(s));
  return added.length ? { scopes: [...key.scopes, ...added], deprecatedScopes: added } : { scopes: key.scopes };
}
