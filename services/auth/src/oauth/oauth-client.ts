/** A client of the authorization server: registered (RFC 7591) or described by its metadata document (CIMD). */
export interface OAuthClient {
  id: string;
  name: string;
  redirectUris: string[];
  grantTypes: string[];
  /** SHA-256 of the client secret; absent for public clients (`token_endpoint_auth_method: none`). */
  secretHash?: Buffer;
  source: 'registration' | 'metadata_document';
}
