import { MCP_MAX_BODY_BYTES, type Principal } from '@postbus/contracts';
import type { BodyLimit } from './bounded-json-body';

/** Without valid credentials a caller can only initialize, list tools and ping: small messages. */
export const ANONYMOUS_MAX_BODY_BYTES = 64 * 1024;

const AUTHENTICATED: BodyLimit = {
  maxBytes: MCP_MAX_BODY_BYTES,
  tooLarge: `Payload Too Large: a request body must not exceed ${MCP_MAX_BODY_BYTES} bytes. Send bigger files with POST /api/v1/media (multipart) or import them from a link with svc_add_media_from_url.`,
};

const ANONYMOUS: BodyLimit = {
  maxBytes: ANONYMOUS_MAX_BODY_BYTES,
  tooLarge: `Payload Too Large: without valid credentials a request body must not exceed ${ANONYMOUS_MAX_BODY_BYTES} bytes (${MCP_MAX_BODY_BYTES} with an API key or access token).`,
};

/** The body limit is chosen once the caller is known, so no stranger gets a large body parsed. */
export function bodyLimitFor(principal: Principal | undefined): BodyLimit {
  return principal ? AUTHENTICATED : ANONYMOUS;
}
