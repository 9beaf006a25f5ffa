import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { fromBuffer } from 'file-type';
import { AppError } from '@postbus/contracts';
import { acceptedContentType, ACCEPTED_DESCRIPTION } from './media-types';

/** file-type reads at most this many bytes to recognise a format. */
const SNIFF_BYTES = 4100;

export interface MeterLimits {
  /** Largest file allowed (file_too_large above it). */
  maxBytes: number;
  /** Storage the account has left (storage_quota_exceeded above it). */
  quotaBytes: number;
  /** Builds the error for bytes of no accepted type (default: unsupported_media_type). */
  onUnknownType?(head: Buffer, detectedMime: string | undefined): AppError;
}

/**
 * Passes bytes through while counting them, hashing them (SHA-256) and recognising their type
 * from the first bytes. It fails the stream as soon as a limit is crossed or the type is not
 * accepted, so a bad file is never stored whole. Only the first 4 KB are ever held.
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
    this.recognise().then(() => callback(null, this.takeHead()), callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.contentType) return callback();
    this.recognise().then(() => callback(null, this.takeHead()), callback);
  }

  private overLimit(): AppError | undefined {
    if (this.sizeBytes > this.limits.maxBytes) return new AppError('file_too_large', `The file is larger than ${Math.round(this.limits.maxBytes / 1024 / 1024)} MB.`, { maxBytes: this.limits.maxBytes });
    if (this.sizeBytes > this.limits.quotaBytes) return new AppError('storage_quota_exceeded', 'This file does not fit in the storage left on your plan; delete media or upgrade.', { remainingBytes: Math.max(0, this.limits.quotaBytes) });
    return undefined;
  }

  private async recognise(): Promise<void> {
    const head = this.head.length === 1 ? this.head[0] : Buffer.concat(this.head);
    this.head = [head];
    const detected = head.length ? await fromBuffer(head.subarray(0, SNIFF_BYTES)) : undefined;
    const accepted = acceptedContentType(detected?.mime);
    if (!accepted) {
      throw this.limits.onUnknownType?.(head.subarray(0, SNIFF_BYTES), detected?.mime) ?? new AppError('unsupported_media_type', `${detected ? `This ${detected.mime} file is` : 'This file is not'} of an accepted type: send ${ACCEPTED_DESCRIPTION}.`);
    }
    this.contentType = accepted;
  }

  private takeHead(): Buffer {
    const head = this.head.length === 1 ? this.head[0] : Buffer.concat(this.head);
    this.head = [];
    return head;
  }
}
