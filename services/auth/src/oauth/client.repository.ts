import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { OAuthClient } from './oauth-client';

interface ClientRow {
  id: string;
  secret_hash: Buffer | null;
  name: string;
  redirect_uris: string[];
  grant_types: string[];
}

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest();
export const newClientSecret = () => `ocs_${randomBytes(32).toString('base64url')}`;

export function secretMatches(client: OAuthClient, secret: string | undefined | null): boolean {
  if (!client.secretHash) return true;
  if (typeof secret !== 'string' || !secret) return false;
  const given = hashSecret(secret);
  return given.length === client.secretHash.length && timingSafeEqual(given, client.secretHash);
}

/** Dynamically registered clients (RFC 7591). */
export class ClientRepository {
  constructor(private readonly ds: DataSource) {}

  async insert(client: {
    id: string;
    secretHash: Buffer | null;
    name: string;
    redirectUris: string[];
    grantTypes: string[];
    authMethod: string;
    metadata: Record<string, unknown>;
  }): Promise<void> {
    await this.ds.query(
      'INSERT INTO oauth_clients (id, secret_hash, name, redirect_uris, grant_types, token_endpoint_auth_method, metadata) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)',
      [
        client.id,
        client.secretHash,
        client.name,
        client.redirectUris,
        client.grantTypes,
        client.authMethod,
        JSON.stringify(client.metadata),
      ],
    );
  }

  async find(id: string): Promise<OAuthClient | undefined> {
    const rows: ClientRow[] = await this.ds.query(
      'SELECT id, secret_hash, name, redirect_uris, grant_types FROM oauth_clients WHERE id = $1',
      [id],
    );
    const r = rows[0];
    return (
      r && {
        id: r.id,
        name: r.name,
        redirectUris: r.redirect_uris,
        grantTypes: r.grant_types,
        secretHash: r.secret_hash ?? undefined,
        source: 'registration',
      }
    );
  }
}
