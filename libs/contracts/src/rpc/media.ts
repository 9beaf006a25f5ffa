import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { defineRpc } from './define';

/** Largest file an upload, a base64 upload or a link import may bring (spec 8: 50 MB). */
export const MEDIA_MAX_BYTES = 50 * 1024 * 1024;
/** How long a caller waits for a link import: media's own download limits end it sooner. */
export const MEDIA_IMPORT_RPC_TIMEOUT_MS = 75_000;

export const MEDIA_STATUSES = ['ready', 'deleted', 'processing', 'failed'] as const;

const OrNull = <T extends TSchema>(schema: T, options: { description?: string } = {}) =>
  Type.Union([schema, Type.Null()], options);

/** The video stream of a video, as ffprobe reads it; null where the file does not say. */
export const MediaVideoStreamSchema = Type.Object({
  codec: Type.String({ description: 'ffprobe codec_name: h264, hevc, vp9, av1, …' }),
  profile: OrNull(Type.String()),
  width: Type.Integer({ description: 'Coded width in pixels (before rotation)' }),
  height: Type.Integer({ description: 'Coded height in pixels (before rotation)' }),
  rotation: Type.Integer({
    description: 'Display rotation in degrees, 0, 90, 180 or 270 (display matrix or rotate tag)',
  }),
  frameRate: OrNull(Type.Number({ description: 'Average frames per second' })),
  bitRate: OrNull(Type.Integer({ description: 'Bits per second' })),
  pixelFormat: OrNull(Type.String()),
  colorSpace: OrNull(Type.String()),
  colorTransfer: OrNull(Type.String()),
  colorPrimaries: OrNull(Type.String()),
});

export const MediaAudioStreamSchema = Type.Object({
  codec: Type.String({ description: 'ffprobe codec_name: aac, opus, mp3, …' }),
  channels: OrNull(Type.Integer()),
  sampleRate: OrNull(Type.Integer({ description: 'Hz' })),
});

/** What ffprobe found in a stored media, once, when it was stored. */
export const MediaProbeSchema = Type.Object({
  kind: Type.Union([Type.Literal('image'), Type.Literal('video')]),
  container: Type.String({
    description: 'ffprobe format_name (mov,mp4,m4a,3gp,3g2,mj2 / matroska,webm / png_pipe / …)',
  }),
  width: Type.Integer({ description: 'Width as displayed, rotation applied' }),
  height: Type.Integer({ description: 'Height as displayed, rotation applied' }),
  durationSec: OrNull(Type.Number({ description: 'Videos: length in seconds' })),
  bitRate: OrNull(Type.Integer({ description: 'Whole file, bits per second' })),
  image: Type.Optional(
    Type.Object({
      format: Type.String({ description: 'ffprobe codec_name: mjpeg, png, webp, gif' }),
      width: Type.Integer(),
      height: Type.Integer(),
    }),
  ),
  video: Type.Optional(MediaVideoStreamSchema),
  audio: Type.Optional(OrNull(MediaAudioStreamSchema)),
});
export type MediaProbe = Static<typeof MediaProbeSchema>;

export const MediaAssetSchema = Type.Object({
  mediaId: Type.String(),
  url: Type.String({ description: 'Signed, expiring serve URL under {base_url}' }),
  contentType: Type.String({ description: 'Detected from the bytes, never from the client' }),
  sizeBytes: Type.Integer(),
  status: Type.String({
    description: 'ready | deleted; a rendition is processing until its file is stored, or failed',
  }),
  createdAt: Type.String(),
  probe: OrNull(MediaProbeSchema, {
    description:
      'What ffprobe read from the file when it was stored: container, dimensions, duration, codecs; null for media stored before files were probed',
  }),
  percent: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 100, description: 'A rendition: how much of it is made (100 once ready)' }),
  ),
  rendition: Type.Optional(
    Type.Object(
      {
        sourceMediaId: Type.String(),
        preset: Type.String({
          description:
            'The platform target it fits (facebook.reel, instagram.feed_image, …), `+trim` when cut to length',
        }),
      },
      { description: 'Present on a rendition: a copy of another media made to fit one platform (normalize)' },
    ),
  ),
  failedReason: Type.Optional(Type.String({ description: 'A failed rendition: why it could not be made' })),
});
export type MediaAsset = Static<typeof MediaAssetSchema>;

/** A rendition preset: a platform target (libs/platforms MEDIA_RULES), `+trim` (`+trim<seconds>`) when the video is cut to the target's longest duration (or the creator's), `+cover<ms>` for a JPEG cover frame of the video at that offset. */
export const RENDITION_PRESET_PATTERN = '^[a-z]+\\.[a-z_]+(\\+trim\\d*)?(\\+cover\\d+)?$';

export const RenditionRequestSchema = Type.Object(
  {
    mediaId: Type.String({ description: 'The source media' }),
    preset: Type.String({ pattern: RENDITION_PRESET_PATTERN, maxLength: 64 }),
    contentType: Type.Union([Type.Literal('video/mp4'), Type.Literal('image/jpeg')], {
      description: 'What the rendition will be',
    }),
  },
  { additionalProperties: false },
);

/** What the transcoder needs for one rendition: where to read the source and where to send the result (paths under media's HTTP listener, signed). */
export const RenditionWorkSchema = Type.Object({
  renditionId: Type.String(),
  status: Type.String({ description: 'processing: to be made; ready or failed: nothing left to do' }),
  preset: Type.String(),
  contentType: Type.String(),
  sourcePath: Type.String({ description: 'Signed GET path of the source file' }),
  uploadPath: Type.String({ description: 'Signed PUT path that stores the rendition' }),
  sourceProbe: OrNull(MediaProbeSchema),
});
export type RenditionWork = Static<typeof RenditionWorkSchema>;

/** Answer of POST /api/v1/media and svc_upload_media (spec 4.1). */
export const MediaUploadedSchema = Type.Object({
  success: Type.Boolean(),
  url: Type.String({ description: 'Signed, expiring serve URL under {base_url}' }),
  mediaId: Type.String(),
});
export type MediaUploaded = Static<typeof MediaUploadedSchema>;

/** Answer of POST /api/v1/media/from-url and svc_add_media_from_url (spec 4.1). */
export const MediaImportedSchema = Type.Object({
  success: Type.Boolean(),
  mediaId: Type.String(),
  url: Type.String({ description: 'Signed, expiring serve URL under {base_url}' }),
  contentType: Type.String(),
  sizeBytes: Type.Integer(),
});
export type MediaImported = Static<typeof MediaImportedSchema>;

export const MediaPageSchema = Type.Object({
  media: Type.Array(MediaAssetSchema),
  count: Type.Integer({ description: 'Items on this page' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null on the last one',
  }),
});
export type MediaPage = Static<typeof MediaPageSchema>;

export const MediaDeletedSchema = Type.Object({
  mediaId: Type.String(),
  status: Type.Literal('deleted'),
  deletedAt: Type.String(),
});

export const MediaListQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Items per page (default 20)' })),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'nextCursor of the previous page' }),
    ),
  },
  { additionalProperties: false },
);

export const MediaFromUrlSchema = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'A public http(s) link pointing straight at an image or video file',
    }),
  },
  { additionalProperties: false },
);

export const MediaBase64Schema = Type.Object(
  {
    content: Type.String({ minLength: 1, description: 'The file, base64-encoded (at most 50 MB once decoded)' }),
    filename: Type.Optional(Type.String({ maxLength: 255, description: 'Original file name, kept for reference' })),
  },
  { additionalProperties: false },
);

/**
 * Most base64 characters svc_upload_media takes (750,000 bytes once decoded), so that the whole
 * JSON-RPC request stays under MCP_MAX_BODY_BYTES; bigger files go through POST /api/v1/media or
 * a link import.
 */
export const MCP_UPLOAD_BASE64_MAX_CHARS = 1_000_000;

/** svc_upload_media's arguments: MediaBase64Schema within the agent endpoint's body limit. */
export const McpUploadMediaSchema = Type.Object(
  {
    content: Type.String({
      minLength: 1,
      maxLength: MCP_UPLOAD_BASE64_MAX_CHARS,
      description: 'The file, base64-encoded: at most 1,000,000 characters (750,000 bytes once decoded)',
    }),
    filename: MediaBase64Schema.properties.filename,
  },
  { additionalProperties: false },
);

/** Where a signed upload URL takes its PUT (media's own listener, streamed by the gateway): `/uploads/{token}`. */
export const MEDIA_UPLOADS_PATH = '/uploads';
/** How long an upload URL takes its PUT: time to send 50 MB on a slow link, and soon useless if it leaks. */
export const MEDIA_UPLOAD_URL_TTL_SECONDS = 15 * 60;

export const MediaUploadUrlRequestSchema = Type.Object(
  {
    filename: Type.Optional(
      Type.String({ maxLength: 255, description: 'Original file name, kept for reference. Example: "launch.mp4".' }),
    ),
  },
  { additionalProperties: false },
);

/** Answer of POST /api/v1/media/upload-url and svc_create_upload_url. */
export const MediaUploadUrlSchema = Type.Object({
  mediaId: Type.String({
    description: "The id the file gets once the PUT is stored: use it as a post's mediaId after that",
  }),
  uploadUrl: Type.String({
    description:
      'PUT the raw bytes here, once, before expiresAt, without an Authorization header: the URL is the grant',
  }),
  method: Type.Literal('PUT'),
  expiresAt: Type.String(),
  maxBytes: Type.Integer({
    description: 'The largest file this URL takes: 50 MB, or the storage left when that is less',
  }),
});
export type MediaUploadUrl = Static<typeof MediaUploadUrlSchema>;

export const MediaRpc = {
  /** posts turns a mediaId into its serve URL; media_not_found when missing, deleted or another account's. */
  mediaResolve: defineRpc('media.resolve', Type.Object({ mediaId: Type.String() }), MediaAssetSchema),
  /** One media asset of the principal's account; not_found otherwise. */
  mediaGet: defineRpc('media.get', Type.Object({ mediaId: Type.String() }), MediaAssetSchema),
  /** The account's ready media, newest first, a page at a time. */
  mediaList: defineRpc('media.list', MediaListQuerySchema, MediaPageSchema),
  /** Deletes a media asset and announces media.deleted; its serve URLs stop working. */
  mediaDelete: defineRpc('media.delete', Type.Object({ mediaId: Type.String() }), MediaDeletedSchema),
  /** Downloads a direct file link into the library; `deduplicated` when the account already imported that link. */
  mediaImportFromUrl: defineRpc(
    'media.importFromUrl',
    MediaFromUrlSchema,
    Type.Object({ ...MediaImportedSchema.properties, deduplicated: Type.Boolean() }),
  ),
  /** Stores base64 content with the limits of a multipart upload (the agent twin of POST /api/v1/media). */
  mediaUploadBase64: defineRpc('media.uploadBase64', MediaBase64Schema, MediaUploadedSchema),
  /** A signed, short-lived URL a file is PUT to (the same checks as an upload), and the mediaId it will have. */
  mediaCreateUploadUrl: defineRpc('media.uploadUrl.create', MediaUploadUrlRequestSchema, MediaUploadUrlSchema),
  /** A copy of the media that fits a platform target; the same source and preset answer the same rendition (made once, by the transcoder). */
  mediaRequestRendition: defineRpc('media.renditions.request', RenditionRequestSchema, MediaAssetSchema),
  /** The transcoder takes a rendition job: where its source is and where its result goes. */
  mediaStartRendition: defineRpc(
    'media.renditions.start',
    Type.Object({ renditionId: Type.String() }),
    RenditionWorkSchema,
  ),
  /** The transcoder reports how far a rendition is. */
  mediaRenditionProgress: defineRpc(
    'media.renditions.progress',
    Type.Object({ renditionId: Type.String(), percent: Type.Integer({ minimum: 0, maximum: 100 }) }),
    Type.Object({ status: Type.String() }),
  ),
  /** The transcoder could not make a rendition; `reason` is shown to the person whose post waits for it. */
  mediaFailRendition: defineRpc(
    'media.renditions.fail',
    Type.Object({ renditionId: Type.String(), reason: Type.String({ maxLength: 1000 }) }),
    Type.Object({ status: Type.String() }),
  ),
};
