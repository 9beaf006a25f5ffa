import OAuth2Server from '@node-oauth/oauth2-server';

/** An error the client learns as `{ error, error_description }` (or on its redirect URI), with the HTTP status the library gives it. */
export type OAuthError = InstanceType<typeof OAuth2Server.OAuthError>;
export const {
  InvalidRequestError,
  InvalidClientError,
  InvalidGrantError,
  InvalidScopeError,
  UnsupportedResponseTypeError,
} = OAuth2Server;

export function isOAuthError(err: unknown): err is OAuthError {
  return err instanceof OAuth2Server.OAuthError;
}

/** RFC 8707: the `resource` is not one this server issues tokens for, or not the one the grant was for. */
export class InvalidTargetError extends OAuth2Server.OAuthError {
  constructor(message: string) {
    super(message, { code: 400, name: 'invalid_target' });
  }
}

/** RFC 7591: a registration refused, `invalid_redirect_uri` or `invalid_client_metadata`. */
export class RegistrationError extends OAuth2Server.OAuthError {
  constructor(name: 'invalid_redirect_uri' | 'invalid_client_metadata', message: string) {
    super(message, { code: 400, name });
  }
}
