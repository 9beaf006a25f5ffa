import type { Database } from '@postbus/kit';
import type { MastodonApp } from '@postbus/platforms';
import { sealedAt, type TokenVault } from '../vault/token-vault';

interface MastodonAppRow {
  instance: string;
  redirect_uri: string;
  client_id: string;
  client_secret_enc: string;
}

/** Postbus's app on each Mastodon instance (https://docs.joinmastodon.org/methods/apps/#create), its secret sealed to its row. */
export class MastodonAppRepository {
  constructor(
    private readonly db: Database,
    private readonly vault: TokenVault,
  ) {}

  /** The app registered for this instance and redirect URI; undefined when there is none or its secret no longer opens (a retired key). */
  async find(instance: string, redirectUri: string): Promise<MastodonApp | undefined> {
    const row = await this.db.one<MastodonAppRow>(
      'SELECT * FROM mastodon_apps WHERE instance = $1 AND redirect_uri = $2',
      [instance, redirectUri],
    );
    if (!row) return undefined;
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
  async save(instance: string, redirectUri: string, app: MastodonApp): Promise<void> {
    await this.db.query(
      `INSERT INTO mastodon_apps (instance, redirect_uri, client_id, client_secret_enc) VALUES ($1, $2, $3, $4)
       ON CONFLICT (instance, redirect_uri) DO UPDATE SET client_id = EXCLUDED.client_id, client_secret_enc = EXCLUDED.client_secret_enc, created_at = now()`,
      [instance, redirectUri, app.clientId, this.vault.seal(app.clientSecret, at(instance, redirectUri))],
    );
  }
}

const at = (instance: string, redirectUri: string) =>
  sealedAt(`mastodon_app ${instance} ${redirectUri}`, 'client_secret_enc');
