import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { AppError } from '@postbus/contracts';
import { acceptedContentType, ACCEPTED_DESCRIPTION } from './media-types';
import { sniffMediaType, SNIFF_BYTES } from './sniff-media-type';

export interface MeterLimits {
  /** Largest file allowed (file_too_large above it). */
  maxBytes: number;
  /** Storage the account has left (storage_quota_exceeded above it). */
  quotaBytes: number;
  /** Builds the error for bytes of no accepted type (default: unsupported_media_type). */
  onUnknownType?(head: Buffer): AppError;
}

/**
 * Passes bytes through while counting them, hashing them (SHA-256) and recognising their type
 * from the first bytes. It fails the stream as soon as a limit is crossed or the type is not
 * accepted, so a bad file is never stored whole. Until the type is decided, only the first
 * SNIFF_BYTES (and the rest of the chunk that completed them) are held; after, nothing is.
 */
export class MediaMeter extends Transform {
  sizeBytes = 0;
  contentType?: string;
  private readonly hash = createHash('sha256');
  private head: Buffer[] = [];
  private headBytes = 0;

  constructor(private readonly limits: MeterLimits) {
    super();
  }

  get sha256(): string {
    return this.hash.copy().digest('hex');
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.sizeBytes += chunk.length;
    const over = this.overLimit();
    if (over) return callback(over);
    this.hash.update(chunk);
    if (this.contentType) return callback(null, chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < SNIFF_BYTES) return callback();
    this.decideType(callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.contentType) return callback();
    this.decideType(callback);
  }

  private overLimit(): AppError | undefined {
    if (this.sizeBytes > this.limits.maxBytes)
      return new AppError(
        'file_too_large',
        `The file is larger than ${Math.round(this.limits.maxBytes / 1024 / 1024)} MB.`,
        { maxBytes: this.limits.maxBytes },
      );
    if (this.sizeBytes > this.limits.quotaBytes)
      return new AppError(
        'storage_quota_exceeded',
        'This file does not fit in the storage left on your plan; delete media or upgrade.',
        { remainingBytes: Math.max(0, this.limits.quotaBytes) },
      );
    return undefined;
  }

  /** Sniffs the held head (synchronously: bounded work, nothing awaited) and lets it through or fails the stream. */
  private decideType(callback: TransformCallback): void {
    const head = this.takeHead();
    const accepted = acceptedContentType(sniffMediaType(head));
    if (!accepted) {
      return callback(
        this.limits.onUnknownType?.(head.subarray(0, SNIFF_BYTES)) ??
          new AppError('unsupported_media_type', `This file is not of an accepted type: send ${ACCEPTED_DESCRIPTION}.`),
      );
    }
    this.contentType = accepted;
    callback(null, head);
  }

  private takeHead(): Buffer {
    const head = this.head.length === 1 ? this.head[0] : Buffer.concat(this.head);
    this.head = [];
    return head;
  }
}
