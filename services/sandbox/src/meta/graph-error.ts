import { randomBytes } from 'node:crypto';

/**
 * An error as Meta's Graph APIs answer it (Threads, Instagram, Facebook):
 * `{"error":{message,type,code,error_subcode,is_transient,error_user_title,error_user_msg,fbtrace_id}}`.
 */
export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly extra: {
      type?: string;
      subcode?: number;
      isTransient?: boolean;
      userTitle?: string;
      userMsg?: string;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = 'GraphError';
  }

  toBody(): { error: Record<string, unknown> } {
    const { type = 'OAuthException', subcode, isTransient, userTitle, userMsg } = this.extra;
    return {
      error: {
        message: this.message,
        type,
        code: this.code,
        ...(subcode !== undefined && { error_subcode: subcode }),
        ...(isTransient !== undefined && { is_transient: isTransient }),
        ...(userTitle && { error_user_title: userTitle }),
        ...(userMsg && { error_user_msg: userMsg }),
        fbtrace_id: randomBytes(9).toString('base64url'),
      },
    };
  }
}

/** `(#100) ...`: a parameter is missing or wrong. */
export function invalidParameter(message: string, userMsg?: string): GraphError {
  return new GraphError(400, 100, `(#100) ${message}`, { userMsg, isTransient: false });
}

/** The classic answer for an id that does not exist or belongs to someone else. */
export function objectNotFound(method: 'get' | 'post', id: string): GraphError {
  return new GraphError(
    400,
    100,
    `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    { type: 'GraphMethodException', subcode: 33 },
  );
}

export function unknownPath(method: string): GraphError {
  return new GraphError(
    400,
    100,
    `Unsupported ${method.toLowerCase()} request. Please read the Graph API documentation.`,
    {
      type: 'GraphMethodException',
    },
  );
}

export function missingToken(): GraphError {
  return new GraphError(400, 2500, 'An active access token must be used to query information about the current user.');
}

/** An unknown or malformed token: HTTP 401, code 190 without subcode. */
export function invalidToken(): GraphError {
  return new GraphError(401, 190, 'Invalid OAuth access token - Cannot parse access token');
}

/** A token the user invalidated (password change, revoked session): HTTP 400, code 190, subcode 460. */
export function revokedToken(): GraphError {
  return new GraphError(
    400,
    190,
    'Error validating access token: The session has been invalidated because the user changed their password or Meta has changed the session for security reasons.',
    { subcode: 460, userTitle: 'Session invalidated', userMsg: 'Please log in again.' },
  );
}

/** Default message of the codes a fault can inject. */
const CODE_MESSAGES: Record<number, string> = {
  1: 'An unknown error occurred',
  2: 'Service temporarily unavailable',
  3: '(#3) Application does not have the capability to make this API call.',
  4: '(#4) Application request limit reached',
  9: '(#9) The user has reached the publishing limit for this period.',
  10: '(#10) Application does not have permission for this action',
  17: '(#17) User request limit reached',
  24: 'The requested resource does not exist',
  32: '(#32) Page request limit reached',
  100: '(#100) Invalid parameter',
  190: 'Invalid OAuth access token - Cannot parse access token',
  200: '(#200) Requires threads_content_publish permission to manage the object',
  341: '(#341) Application limit reached',
  368: 'The action attempted has been deemed abusive or is otherwise disallowed',
  506: '(#506) Duplicate status message',
  613: '(#613) Calls to this api have exceeded the rate limit.',
  80001: '(#80001) There have been too many calls to this Page account. Wait a bit and try again.',
  80002: '(#80002) There have been too many calls to this Instagram account. Wait a bit and try again.',
};

const THROTTLE_CODES = new Set([4, 17, 32, 341, 613, 80001, 80002]);

/** An injected failure: any code, with the status and headers Meta would plausibly send. */
export function graphErrorForCode(
  code: number,
  opts: { status?: number; subcode?: number; message?: string } = {},
): GraphError {
  const transient = code === 1 || code === 2 || THROTTLE_CODES.has(code);
  const status = opts.status ?? (code === 1 || code === 2 ? 500 : 400);
  const headers: Record<string, string> = {};
  if (THROTTLE_CODES.has(code)) {
    headers['x-app-usage'] = JSON.stringify({ call_count: 100, total_cputime: 40, total_time: 60 });
    if (code === 80001 || code === 80002) {
      headers['x-business-use-case-usage'] = JSON.stringify({
        sandbox: [
          { type: 'instagram', call_count: 100, total_cputime: 30, total_time: 40, estimated_time_to_regain_access: 1 },
        ],
      });
    }
  }
  return new GraphError(status, code, opts.message ?? CODE_MESSAGES[code] ?? `(#${code}) Sandbox injected error`, {
    subcode: opts.subcode,
    isTransient: transient,
    headers,
  });
}
