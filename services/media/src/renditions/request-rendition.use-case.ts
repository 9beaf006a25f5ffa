import { AppError, Events, newId, type MediaAsset, type Principal } from '@postbus/contracts';
import { envelope, writeOutbox } from '@postbus/bus';
import type { LibraryTx } from '../library/media.repository';
import { renditionAsset } from './rendition-asset';
import type { RenditionPorts } from './rendition-ports';
import type { Rendition } from './rendition.repository';

export interface RenditionRequest {
  mediaId: string;
  preset: string;
  contentType: string;
}

/**
 * The rendition of a media for a preset: made once per account for the same bytes and preset
 * (another media row holding the same bytes gets the same rendition), so a source normalized
 * twice for the same platform is transcoded once. A new one is recorded as processing and its
 * job written to the outbox in the same transaction; a failed one is asked for again; one whose
 * media was deleted since is made anew.
 */
export async function requestRendition(
  ports: RenditionPorts,
  principal: Principal,
  req: RenditionRequest,
): Promise<MediaAsset> {
  const source = await ports.media.findReady(principal.accountId, req.mediaId);
  if (!source)
    throw new AppError('media_not_found', `Media ${req.mediaId} does not exist in this account or was deleted.`);
  const { rendition, queued } = await ports.media.transaction(async (m) => {
    // Two posts asking at once for the same rendition: the second waits and finds the first's.
    await ports.media.lockAccount(m, principal.accountId);
    const live = await ports.renditions.findLive(m, principal.accountId, source.sha256, req.preset);
    if (live?.status === 'processing') return { rendition: live, queued: false };
    if (live?.status === 'ready' && (await ports.media.findReady(principal.accountId, live.id)))
      return { rendition: live, queued: false };
    if (live?.status === 'failed')
      return { rendition: await queue(m, await ports.renditions.retry(m, live.id)), queued: true };
    if (live) await ports.renditions.discard(m, live.id);
    const made = await ports.renditions.insert(m, {
      id: newId('med'),
      accountId: principal.accountId,
      sourceMediaId: source.id,
      sourceSha256: source.sha256,
      preset: req.preset,
      contentType: req.contentType,
    });
    return { rendition: await queue(m, made), queued: true };
  });
  if (queued) ports.announce();
  const media =
    rendition.status === 'ready' ? await ports.media.findReady(principal.accountId, rendition.id) : undefined;
  return renditionAsset(ports, rendition, media);
}

async function queue(m: LibraryTx, r: Rendition): Promise<Rendition> {
  await writeOutbox(m, [
    envelope(Events.mediaRenditionRequested, { renditionId: r.id, accountId: r.accountId, preset: r.preset }),
  ]);
  return r;
}
