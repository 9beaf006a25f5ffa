import { OAuthError } from '../../oauth/oauth-error';
import { BLUESKY_PLATFORM } from '../api';

/** Why a sign-in with Bluesky was refused before or after the authorization server was asked. */
export type BlueskyOAuthRefusal =
  | 'invalid_identifier'
  | 'identity_unresolved'
  | 'handle_mismatch'
  | 'no_pds'
  | 'insecure_url'
  | 'resource_metadata_invalid'
  | 'issuer_mismatch'
  | 'as_metadata_invalid'
  | 'par_unsupported'
  | 's256_unsupported'
  | 'dpop_unsupported'
  | 'state_mismatch'
  | 'authorization_denied'
  | 'sub_mismatch'
  | 'token_type_invalid'
  | 'scope_missing'
  | 'malformed_response';

/** A refusal of ours (the server or the document broke a rule of https://atproto.com/specs/oauth): not transient, no reconnect fixes it by itself. */
export function refuse(code: BlueskyOAuthRefusal, message: string, tokenRefused = false): OAuthError {
  return new OAuthError(`Bluesky sign-in refused: ${message}`, {
    platform: BLUESKY_PLATFORM,
    transient: false,
    tokenRefused,
    code,
  });
}
