import type { Database } from '@postbus/kit';
import type { MastodonApp } from '@postbus/platforms';
import { sealedAt, type TokenVault } from '../vault/token-vault';

interface MastodonAppRow {
  instance: string;
  redirect_uri: string;
  client_id: string;
  client_secret_enc: string;
  scopes: string;
}

/** Postbus's app on each Mastodon instance (https://docs.joinmastodon.org/methods/apps/#create), its secret sealed to its row. */
export class MastodonAppRepository {
  constructor(
    private readonly db: Database,
    private readonly vault: TokenVault,
  ) {}

  /**
   * The app registered for this instance and redirect URI; undefined when there is none, its secret no
   * longer opens (a retired key), or `scopes` is named and the app was registered with others (an
   * instance refuses to authorize a scope its app did not register, so a new app is registered).
   */
  async find(instance: string, redirectUri: string, scopes?: string): Promise<MastodonApp | undefined> {
    const row = await this.db.one<MastodonAppRow>(
      'SELECT * FROM mastodon_apps WHERE instance = $1 AND redirect_uri = $2',
      [instance, redirectUri],
    );
    if (!row || (scopes !== undefined && row.scopes !== scopes)) return undefined;
    try {
      return {
        clientId: row.client_id,
        clientSecret: this.vault.open(row.client_secret_enc, at(instance, redirectUri)),
      };
    } catch {
      return undefined;
    }
  }

  /** Keeps a newly registered app (replacing an earlier one of the same instance and redirect URI). */
  async save(instance: string, redirectUri: string, app: MastodonApp, scopes: string): Promise<void> {
    await this.db.query(
      `INSERT INTO mastodon_apps (instance, redirect_uri, client_id, client_secret_enc, scopes) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (instance, redirect_uri) DO UPDATE SET client_id = EXCLUDED.client_id, client_secret_enc = EXCLUDED.client_secret_enc,
         scopes = EXCLUDED.scopes, created_at = now()`,
      [instance, redirectUri, app.clientId, this.vault.seal(app.clientSecret, at(instance, redirectUri)), scopes],
    );
  }
}

const at = (instance: string, redirectUri: string) =>
  sealedAt(`mastodon_app ${instance} ${redirectUri}`, 'client_secret_enc');
