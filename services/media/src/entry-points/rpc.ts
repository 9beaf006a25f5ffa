import { Rpc } from '@postbus/contracts';
import type { RpcServer } from '@postbus/bus';
import { deleteMedia } from '../library/delete-media.use-case';
import { getMedia, listMedia, resolveMedia } from '../library/find-media.queries';
import { importFromUrl, type ImportPorts } from '../library/import-from-url.use-case';
import { uploadBase64 } from '../library/upload-base64.use-case';

export function registerRpc(rpc: RpcServer, ports: ImportPorts): void {
  rpc.handle(Rpc.mediaResolve, ({ mediaId }, { principal }) => resolveMedia(ports, principal, mediaId));
  rpc.handle(Rpc.mediaGet, ({ mediaId }, { principal }) => getMedia(ports, principal, mediaId));
  rpc.handle(Rpc.mediaList, (query, { principal }) => listMedia(ports, principal, query));
  rpc.handle(Rpc.mediaDelete, ({ mediaId }, { principal }) => deleteMedia(ports, principal, mediaId));
  rpc.handle(Rpc.mediaImportFromUrl, ({ url }, { principal }) => importFromUrl(ports, principal, url));
  rpc.handle(Rpc.mediaUploadBase64, (input, { principal }) => uploadBase64(ports, principal, input));
}
