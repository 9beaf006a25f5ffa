import type { ClientRepository } from './client.repository';
import { isMetadataDocumentId, type ClientMetadataDocuments } from './client-metadata-documents';
import type { OAuthClient } from './oauth-client';

/** Finds the client behind a client_id: a metadata document URL, or a registered client. */
export class ClientDirectory {
  constructor(
    private readonly registered: ClientRepository,
    private readonly documents: ClientMetadataDocuments,
  ) {}

  /** The client, undefined when no such client is registered; a metadata document that cannot be used throws invalid_client. */
  async find(clientId: string): Promise<OAuthClient | undefined> {
    if (isMetadataDocumentId(clientId)) return this.documents.resolve(clientId);
    return this.registered.find(clientId);
  }
}
