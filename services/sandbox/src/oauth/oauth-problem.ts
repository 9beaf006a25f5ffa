/** An OAuth failure (RFC 6749 `error`), rendered by each platform in its own wire format. */
export class OAuthProblem extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = 'OAuthProblem';
  }
}

export const invalidGrant = (description: string) => new OAuthProblem('invalid_grant', description);
export const invalidRequest = (description: string) => new OAuthProblem('invalid_request', description);
export const invalidClient = (description: string) => new OAuthProblem('invalid_client', description, 401);
