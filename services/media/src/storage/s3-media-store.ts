import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { MissingObjectError, type ByteRange, type MediaStore } from './media-store';

export interface S3StoreOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** 5 MB parts, two in flight: a 50 MB upload holds at most ~10 MB of parts in memory. */
const PART_SIZE = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/** An S3 bucket (or an S3-compatible store). Large bodies go up as a multipart upload, streamed. */
export class S3MediaStore implements MediaStore {
  private readonly client: S3Client;

  constructor(private readonly opts: S3StoreOptions) {
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint || undefined,
      forcePathStyle: opts.forcePathStyle,
      credentials: opts.credentials,
      // Checksums only where S3 requires them: the default trailing checksums of streamed bodies
      // are not understood by every S3-compatible store and would be stored as part of the object.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.opts.bucket, Key: key, Body: body },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      body.destroy();
      await this.delete(key).catch(() => undefined);
      throw err;
    }
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    const res = await this.client
      .send(
        new GetObjectCommand({
          Bucket: this.opts.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      )
      .catch((err) => {
        throw isMissing(err) ? new MissingObjectError(key) : err;
      });
    return res.Body as Readable;
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.opts.bucket, Key: key }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: key }));
  }

  close(): void {
    this.client.destroy();
  }
}

/** NoSuchKey (GET) or NotFound (HEAD has no body to name the error); a missing bucket is a configuration error, not a missing object. */
function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (e?.name === 'NoSuchBucket') return false;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
