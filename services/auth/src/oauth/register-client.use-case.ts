import { newId } from '@postbus/contracts';
import { hashSecret, newClientSecret, type ClientRepository } from './client.repository';
import { RegistrationError } from './oauth-errors';
import { isOAuthScope } from './oauth-scopes';
import { refusedRedirectUri } from './redirect-uri.rules';

const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'];
const GRANTS = ['authorization_code', 'refresh_token'];
const TEXT_FIELDS = [
  'client_name',
  'client_uri',
  'logo_uri',
  'tos_uri',
  'policy_uri',
  'software_id',
  'software_version',
] as const;

const stringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/**
 * Dynamic Client Registration (RFC 7591): checks the metadata, stores the client and answers it
 * with its client_id (and, unless it is a public client, a client_secret shown only now).
 */
export async function registerClient(
  clients: ClientRepository,
  body: unknown,
  now = new Date(),
): Promise<Record<string, unknown>> {
  const { redirectUris, authMethod, text, metadata } = checkRegistration(body);
  const clientId = newId('cli');
  const secret = authMethod === 'none' ? undefined : newClientSecret();
  const name =
    (text.client_name ?? '').trim().slice(0, 100) || new URL(redirectUris[0]).host || 'An unnamed application';
  await clients.insert({
    id: clientId,
    secretHash: secret ? hashSecret(secret) : null,
    name,
    redirectUris,
    grantTypes: metadata.grant_types as string[],
    authMethod,
    metadata,
  });
  return {
    client_id: clientId,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    ...metadata,
  };
}

interface CheckedRegistration {
  redirectUris: string[];
  authMethod: string;
  text: Record<string, string>;
  /** The client's metadata as stored and answered back. */
  metadata: Record<string, unknown>;
}

/** Checks the registration metadata field by field; throws the first refusal. */
function checkRegistration(body: unknown): CheckedRegistration {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new RegistrationError('invalid_client_metadata', 'The registration must be a JSON object.');
  const m = body as Record<string, unknown>;
  const redirectUris = checkRedirectUris(m.redirect_uris);
  const authMethod = checkAuthMethod(m.token_endpoint_auth_method ?? 'client_secret_basic');
  const grantTypes = checkGrantTypes(m.grant_types ?? GRANTS);
  checkResponseTypes(m.response_types ?? ['code']);
  checkScope(m.scope);
  const text = checkTextFields(m);
  if (m.contacts !== undefined && !stringList(m.contacts))
    throw new RegistrationError('invalid_client_metadata', 'contacts must be a list of strings.');
  const metadata: Record<string, unknown> = {
    redirect_uris: redirectUris,
    token_endpoint_auth_method: authMethod,
    grant_types: [...new Set(grantTypes)],
    response_types: ['code'],
    ...text,
    ...(m.scope !== undefined ? { scope: m.scope } : {}),
    ...(m.contacts !== undefined ? { contacts: m.contacts } : {}),
  };
  return { redirectUris, authMethod, text, metadata };
}

function checkRedirectUris(uris: unknown): string[] {
  if (!stringList(uris) || !uris.length || uris.length > 10) {
    throw new RegistrationError('invalid_redirect_uri', 'redirect_uris must list 1 to 10 redirect URIs.');
  }
  for (const uri of uris) {
    const why = refusedRedirectUri(uri);
    if (why) throw new RegistrationError('invalid_redirect_uri', `Invalid redirect URI: ${why}.`);
  }
  return uris;
}

function checkAuthMethod(authMethod: unknown): string {
  if (typeof authMethod !== 'string' || !AUTH_METHODS.includes(authMethod)) {
    throw new RegistrationError(
      'invalid_client_metadata',
      `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}.`,
    );
  }
  return authMethod;
}

function checkGrantTypes(grantTypes: unknown): string[] {
  if (
    !stringList(grantTypes) ||
    !grantTypes.includes('authorization_code') ||
    grantTypes.some((g) => !GRANTS.includes(g))
  ) {
    throw new RegistrationError(
      'invalid_client_metadata',
      `grant_types must include authorization_code and may add refresh_token; nothing else is supported.`,
    );
  }
  return grantTypes;
}

function checkResponseTypes(responseTypes: unknown): void {
  if (!stringList(responseTypes) || responseTypes.some((r) => r !== 'code'))
    throw new RegistrationError('invalid_client_metadata', 'response_types may only be ["code"].');
}

function checkScope(scope: unknown): void {
  if (
    scope !== undefined &&
    (typeof scope !== 'string' ||
      scope
        .split(' ')
        .filter(Boolean)
        .some((s) => !isOAuthScope(s)))
  ) {
    throw new RegistrationError(
      'invalid_client_metadata',
      'scope may only name profile, mcp:read, mcp:write and offline_access.',
    );
  }
}

/** The optional free-text fields, each at most 500 characters. */
function checkTextFields(m: Record<string, unknown>): Record<string, string> {
  const text: Record<string, string> = {};
  for (const field of TEXT_FIELDS) {
    const v = m[field];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v.length > 500)
      throw new RegistrationError('invalid_client_metadata', `${field} must be a string of at most 500 characters.`);
    text[field] = v;
  }
  return text;
}
