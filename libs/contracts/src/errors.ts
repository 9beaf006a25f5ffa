/**
 * Every stable error code the service answers with, and the HTTP status it maps to.
 * The domain raises AppError(code); only the edges (gateway, mcp) translate to HTTP.
 */
export const ERROR_STATUS = {
  // 400: the request itself is wrong
  invalid_json: 400,
  validation_error: 400,
  missing_content: 400,
  missing_platforms: 400,
  unsupported_platform: 400,
  invalid_scheduled_time: 400,
  scheduled_time_in_past: 400,
  invalid_profile_ids: 400,
  media_not_found: 400,
  missing_file: 400,
  media_url_not_direct: 400,
  media_url_refused: 400,
  unsupported_media_type: 400,
  // TikTok photos: a format TikTok does not take (JPEG and WebP only), or a link outside the verified URL prefixes
  unsupported_photo_format: 400,
  media_url_unverified: 400,
  // ffprobe could not read the file (damaged, not really the type its first bytes claim, or too slow to read): nothing is stored
  media_unreadable: 400,
  // the media breaks a rule of one of the post's platforms (details: platform, rule, measured, limit)
  media_incompatible: 400,
  // a first comment for a platform whose API cannot comment (TikTok)
  first_comment_unsupported: 400,
  // a Pinterest pin without platformMeta.pinterest.boardId: every pin goes to a board
  missing_board: 400,
  // 401: who are you?
  missing_api_key: 401,
  invalid_api_key: 401,
  // 403: you may not
  insufficient_scope: 403,
  api_access_disabled: 403,
  plan_required: 403,
  upload_plan_required: 403,
  profile_scope_denied: 403,
  quota_exceeded: 403,
  storage_quota_exceeded: 403,
  invalid_signature: 403,
  // 404
  post_not_found: 404,
  schedule_not_found: 404,
  series_not_found: 404,
  not_found: 404,
  // 405
  method_not_allowed: 405,
  // 409
  external_id_conflict: 409,
  idempotency_conflict: 409,
  post_not_editable: 409,
  // a create asked for a schedule's next slot and the schedule serves none of its profiles, or has no slot left ahead
  schedule_not_applicable: 409,
  // a schedule named a profile as its default that already has another default schedule
  schedule_default_taken: 409,
  // 410: the media exists but storage no longer holds its bytes
  media_gone: 410,
  // 413
  file_too_large: 413,
  // 429
  rate_limited: 429,
  // 5xx
  internal_error: 500,
  not_available: 501,
  service_unavailable: 503,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function statusForCode(code: string): number {
  return (ERROR_STATUS as Record<string, number>)[code] ?? 500;
}

export interface ErrorBody {
  error: string;
  code: ErrorCode;
  details?: unknown;
}

/** The one error type of the domain: a stable code, a message a person can act on. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return statusForCode(this.code);
  }

  toBody(): ErrorBody {
    return this.details === undefined
      ? { error: this.message, code: this.code }
      : { error: this.message, code: this.code, details: this.details };
  }

  static from(body: { code: string; message?: string; error?: string; details?: unknown }): AppError {
    const code = (body.code in ERROR_STATUS ? body.code : 'internal_error') as ErrorCode;
    return new AppError(code, body.message ?? body.error ?? code, body.details);
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
