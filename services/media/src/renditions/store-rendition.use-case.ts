import type { Readable } from 'node:stream';
import { AppError } from '@postbus/contracts';
import { stageObject } from '../ingest/stage-object';
import type { RenditionPorts } from './rendition-ports';

/**
 * The transcoder's PUT of a made rendition (its signature checked by the route): the bytes are
 * staged, sniffed and probed like any upload, then, in one transaction, kept as the rendition's
 * media row (identical bytes share their stored object) and the rendition marked ready.
 * Renditions are made by Postbus, so they are not held to the account's upload quota.
 */
export async function storeRendition(
  ports: RenditionPorts,
  renditionId: string,
  body: Readable,
): Promise<{ mediaId: string; status: string }> {
  const r = await ports.renditions.find(ports.renditions.ds, renditionId);
  if (!r) throw new AppError('not_found', `No rendition ${renditionId}.`);
  if (r.status !== 'processing') return { mediaId: r.id, status: r.status };
  const staged = await stageObject(ports.store, body, {
    maxBytes: ports.maxRenditionBytes,
    quotaBytes: Number.MAX_SAFE_INTEGER,
  });
  let keptKey: string | undefined;
  try {
    const probe = await ports.probe(staged.key, staged.contentType);
    const status = await ports.media.transaction(async (m) => {
      // A job delivered twice may send its file twice: the first one stored wins.
      const status = await ports.renditions.lockStatus(m, r.id);
      if (status !== 'processing') return status;
      keptKey = await ports.media.claimBlob(m, staged);
      await ports.renditions.complete(m, r, staged, probe);
      return 'ready';
    });
    return { mediaId: r.id, status };
  } finally {
    if (keptKey !== staged.key)
      await ports.store
        .delete(staged.key)
        .catch((err) =>
          ports.logger.warn('could not remove a staged object', { key: staged.key, err: (err as Error).message }),
        );
  }
}
