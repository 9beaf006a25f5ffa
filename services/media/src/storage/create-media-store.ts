import type { MediaConfig } from '../config';
import { LocalMediaStore } from './local-media-store';
import type { MediaStore } from './media-store';
import { S3MediaStore } from './s3-media-store';

/** The storage driver the configuration names. */
export function createMediaStore(config: MediaConfig): MediaStore & { close?(): void } {
  if (config.MEDIA_STORAGE === 's3') {
    return new S3MediaStore({
      bucket: config.MEDIA_S3_BUCKET,
      region: config.MEDIA_S3_REGION,
      endpoint: config.MEDIA_S3_ENDPOINT || undefined,
      forcePathStyle: config.MEDIA_S3_FORCE_PATH_STYLE,
      credentials: config.MEDIA_S3_ACCESS_KEY_ID
        ? { accessKeyId: config.MEDIA_S3_ACCESS_KEY_ID, secretAccessKey: config.MEDIA_S3_SECRET_ACCESS_KEY }
        : undefined,
    });
  }
  return new LocalMediaStore(config.MEDIA_LOCAL_DIR);
}
