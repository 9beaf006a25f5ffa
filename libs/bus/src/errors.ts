/** A failure worth retrying later (network, broker, a platform's 429 or 5xx). */
export class TransientError extends Error {
  readonly transient = true;
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'TransientError';
  }
}

/** A failure that retrying cannot fix: the message goes straight to the dead-letter queue. */
export class PermanentError extends Error {
  readonly permanent = true;
  constructor(message: string) {
    super(message);
    this.name = 'PermanentError';
  }
}

export function isPermanent(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { permanent?: boolean }).permanent === true;
}
