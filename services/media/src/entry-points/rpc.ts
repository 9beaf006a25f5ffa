import { Rpc } from '@postbus/contracts';
import type { RpcServer } from '@postbus/bus';
import { deleteMedia } from '../library/delete-media.use-case';
import { listMedia, resolveMedia } from '../library/find-media.queries';
import { importFromUrl, type ImportPorts } from '../library/import-from-url.use-case';
import { uploadBase64 } from '../library/upload-base64.use-case';
import { createUploadUrl, type UploadUrlPorts } from '../library/upload-url';
import { getMediaOrRendition } from '../renditions/get-media.query';
import type { RenditionPorts } from '../renditions/rendition-ports';
import { requestRendition } from '../renditions/request-rendition.use-case';
import { failRendition, reportProgress, startRendition } from '../renditions/rendition-work.use-case';

export function registerRpc(rpc: RpcServer, ports: ImportPorts & RenditionPorts & UploadUrlPorts): void {
  rpc.handle(Rpc.mediaResolve, ({ mediaId }, { principal }) => resolveMedia(ports, principal, mediaId));
  rpc.handle(Rpc.mediaGet, ({ mediaId }, { principal }) => getMediaOrRendition(ports, principal, mediaId));
  rpc.handle(Rpc.mediaList, (query, { principal }) => listMedia(ports, principal, query));
  rpc.handle(Rpc.mediaDelete, ({ mediaId }, { principal }) => deleteMedia(ports, principal, mediaId));
  rpc.handle(Rpc.mediaImportFromUrl, ({ url }, { principal }) => importFromUrl(ports, principal, url));
  rpc.handle(Rpc.mediaUploadBase64, (input, { principal }) => uploadBase64(ports, principal, input));
  rpc.handle(Rpc.mediaCreateUploadUrl, (input, { principal }) => createUploadUrl(ports, principal, input));
  rpc.handle(Rpc.mediaRequestRendition, (input, { principal }) => requestRendition(ports, principal, input));
  rpc.handle(Rpc.mediaStartRendition, ({ renditionId }, { principal }) =>
    startRendition(ports, principal, renditionId),
  );
  rpc.handle(Rpc.mediaRenditionProgress, ({ renditionId, percent }) => reportProgress(ports, renditionId, percent));
  rpc.handle(Rpc.mediaFailRendition, ({ renditionId, reason }) => failRendition(ports, renditionId, reason));
}
