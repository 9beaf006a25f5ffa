import { Type } from '@sinclair/typebox';
import type { ErrorCode } from '../errors';
import {
  MEDIA_IMPORT_RPC_TIMEOUT_MS,
  MediaUploadUrlRequestSchema,
  MediaUploadUrlSchema,
  MediaAssetSchema,
  MediaDeletedSchema,
  MediaFromUrlSchema,
  MediaImportedSchema,
  MediaListQuerySchema,
  MediaPageSchema,
  MediaUploadedSchema,
  McpUploadMediaSchema,
} from '../rpc/media';
import { Rpc, type RpcOutput } from '../rpc';
import type { RouteDef } from './define';

const AUTH_ERRORS: ErrorCode[] = [
  'missing_api_key',
  'invalid_api_key',
  'insufficient_scope',
  'api_access_disabled',
  'plan_required',
  'service_unavailable',
];
const INGEST_ERRORS: ErrorCode[] = [
  'unsupported_media_type',
  'upload_plan_required',
  'storage_quota_exceeded',
  'file_too_large',
];

export const MediaUploadFormSchema = Type.Object(
  {
    file: Type.String({
      format: 'binary',
      description: 'The image or video, at most 50 MB; its type is read from the bytes',
    }),
  },
  { required: ['file'] },
);

export const MediaRoutes = {
  /**
   * multipart/form-data with the file in the field `file`: the gateway streams it to media's own
   * listener (proxied); its RPC serves the agent twin, which sends the file as base64 content.
   */
  uploadMedia: {
    id: 'uploadMedia',
    method: 'post',
    path: '/api/v1/media',
    scope: 'media:write',
    summary:
      'Upload an image or video (multipart/form-data, field `file`, at most 50 MB); answers its mediaId and a signed serve URL.',
    rpc: Rpc.mediaUploadBase64,
    proxied: true,
    body: MediaUploadFormSchema,
    bodyContentType: 'multipart/form-data',
    errors: [...AUTH_ERRORS, 'missing_file', 'validation_error', ...INGEST_ERRORS],
    response: MediaUploadedSchema,
    status: 201,
    tool: {
      name: 'svc_upload_media',
      title: 'Upload a small file (base64)',
      description:
        'Upload a small image (JPEG, PNG, WebP, GIF) or video (MP4, MOV, WebM) as base64: at most 750,000 bytes decoded (1,000,000 characters; a request here is at most 1 MiB). Bigger files (up to 50 MB): svc_create_upload_url, svc_add_media_from_url for a public link, or POST {base_url}/api/v1/media (multipart, field `file`). Returns a mediaId for a post and a signed URL.',
      input: McpUploadMediaSchema,
      toRpc: (args) => args,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      oauthScope: 'mcp:write',
    },
  },
  importMediaFromUrl: {
    id: 'importMediaFromUrl',
    method: 'post',
    path: '/api/v1/media/from-url',
    scope: 'media:write',
    summary:
      'Download a direct file link into the media library (at most 50 MB; the type is read from the file). The same link again answers the same mediaId (200).',
    rpc: Rpc.mediaImportFromUrl,
    body: MediaFromUrlSchema,
    errors: [
      ...AUTH_ERRORS,
      'rate_limited',
      'invalid_json',
      'validation_error',
      'media_url_not_direct',
      ...INGEST_ERRORS,
    ],
    response: MediaImportedSchema,
    status: 201,
    tool: {
      name: 'svc_add_media_from_url',
      title: 'Import media from a link',
      description:
        'Import an image or video (at most 50 MB) from a public link straight to the file (not a share page). Returns mediaId, a signed URL, contentType and sizeBytes; the same link twice, the same mediaId. Preferred for TikTok, YouTube and Facebook video.',
      input: MediaFromUrlSchema,
      toRpc: (args) => args,
      fromRpc: ({ deduplicated: _d, ...rest }: RpcOutput<typeof Rpc.mediaImportFromUrl>) => rest,
      timeoutMs: MEDIA_IMPORT_RPC_TIMEOUT_MS,
      output: MediaImportedSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      oauthScope: 'mcp:write',
    },
  },
  createUploadUrl: {
    id: 'createUploadUrl',
    method: 'post',
    path: '/api/v1/media/upload-url',
    scope: 'media:write',
    summary:
      'A signed URL, valid 15 minutes, to PUT one file to as raw bytes (at most 50 MB, no key on the PUT): checked like an upload (type read from the bytes, probe, storage quota); answers the mediaId the file will have.',
    rpc: Rpc.mediaCreateUploadUrl,
    body: MediaUploadUrlRequestSchema,
    errors: [...AUTH_ERRORS, 'invalid_json', 'validation_error', 'upload_plan_required', 'storage_quota_exceeded'],
    response: MediaUploadUrlSchema,
    status: 201,
    tool: {
      name: 'svc_create_upload_url',
      title: 'Get an upload URL',
      description:
        'Upload a file of up to 50 MB without base64: answers uploadUrl and mediaId. PUT the raw bytes to uploadUrl within 15 minutes, without an Authorization header (curl -T file "<uploadUrl>"); 201 once stored and checked. Then use mediaId in svc_schedule_post.',
      input: MediaUploadUrlRequestSchema,
      toRpc: (args) => args,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      oauthScope: 'mcp:write',
    },
  },
  getMedia: {
    id: 'getMedia',
    method: 'get',
    path: '/api/v1/media/{mediaId}',
    scope: 'media:write',
    summary:
      "Read a media asset of the account with a fresh signed URL; 404 not_found for a missing one or another account's.",
    rpc: Rpc.mediaGet,
    headers: [
      {
        name: 'If-None-Match',
        description:
          'The ETag of an earlier answer: 304 without a body while the asset is unchanged (the signed URL of that answer keeps working until its expiry).',
      },
    ],
    response: MediaAssetSchema,
    status: 200,
  },
  listMedia: {
    id: 'listMedia',
    method: 'get',
    path: '/api/v1/media',
    scope: 'media:write',
    summary: "List the account's media, newest first; follow nextCursor for the next page.",
    rpc: Rpc.mediaList,
    query: MediaListQuerySchema,
    response: MediaPageSchema,
    status: 200,
  },
  deleteMedia: {
    id: 'deleteMedia',
    method: 'delete',
    path: '/api/v1/media/{mediaId}',
    scope: 'media:write',
    summary: 'Delete a media asset: its URLs stop working and posts refuse its mediaId (media_not_found).',
    rpc: Rpc.mediaDelete,
    response: MediaDeletedSchema,
    status: 200,
  },
} satisfies Record<string, RouteDef>;

/** The path under which media serves bytes (signed URLs): `/files/{mediaId}?expires=…&sig=…`. */
export const MEDIA_FILES_PATH = '/files';
