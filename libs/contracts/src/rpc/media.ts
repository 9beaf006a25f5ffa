import { Type, type Static } from '@sinclair/typebox';
import { defineRpc } from './define';

/** Largest file an upload, a base64 upload or a link import may bring (spec 8: 50 MB). */
export const MEDIA_MAX_BYTES = 50 * 1024 * 1024;
/** How long a caller waits for a link import: media's own download limits end it sooner. */
export const MEDIA_IMPORT_RPC_TIMEOUT_MS = 75_000;

export const MEDIA_STATUSES = ['ready', 'deleted'] as const;

export const MediaAssetSchema = Type.Object({
  mediaId: Type.String(),
  url: Type.String({ description: 'Signed, expiring serve URL under {base_url}' }),
  contentType: Type.String({ description: 'Detected from the bytes, never from the client' }),
  sizeBytes: Type.Integer(),
  status: Type.String({ description: 'ready | deleted' }),
  createdAt: Type.String(),
});
export type MediaAsset = Static<typeof MediaAssetSchema>;

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
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last one' }),
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
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'nextCursor of the previous page' })),
  },
  { additionalProperties: false },
);

export const MediaFromUrlSchema = Type.Object(
  { url: Type.String({ minLength: 1, maxLength: 2048, description: 'A public http(s) link pointing straight at an image or video file' }) },
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
  mediaImportFromUrl: defineRpc('media.importFromUrl', MediaFromUrlSchema, Type.Object({ ...MediaImportedSchema.properties, deduplicated: Type.Boolean() })),
  /** Stores base64 content with the limits of a multipart upload (the agent twin of POST /api/v1/media). */
  mediaUploadBase64: defineRpc('media.uploadBase64', MediaBase64Schema, MediaUploadedSchema),
};
