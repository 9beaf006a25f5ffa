import { AppError, type Principal, type RenditionWork } from '@postbus/contracts';
import type { RenditionPorts } from './rendition-ports';

type WorkPorts = Pick<RenditionPorts, 'media' | 'renditions' | 'signer' | 'renditionUploads' | 'logger'>;

/**
 * The transcoder starts a job: where to read the source (a signed serve path) and where to send
 * the result (a signed upload path), both under media's own listener. A rendition already made
 * or failed answers its status and nothing to do (a redelivered job); one whose source was
 * deleted meanwhile fails.
 */
export async function startRendition(
  ports: WorkPorts,
  principal: Principal,
  renditionId: string,
): Promise<RenditionWork> {
  const r = await ports.renditions.find(ports.renditions.ds, renditionId);
  if (!r || r.accountId !== principal.accountId) throw new AppError('not_found', `No rendition ${renditionId}.`);
  const source = await ports.media.findReady(r.accountId, r.sourceMediaId);
  let status: string = r.status;
  if (status === 'processing' && !source)
    status = (await ports.renditions.markFailed(r.id, 'Its source media was deleted before it was made.')) ?? 'failed';
  return {
    renditionId: r.id,
    status,
    preset: r.preset,
    contentType: r.contentType,
    sourcePath: ports.signer.sign(r.sourceMediaId, ''),
    uploadPath: ports.renditionUploads.sign(r.id),
    sourceProbe: source?.probe ?? null,
  };
}

/** How far the transcoder is; answers the rendition's status (a job whose rendition failed or is ready may stop). */
export async function reportProgress(
  ports: WorkPorts,
  renditionId: string,
  percent: number,
): Promise<{ status: string }> {
  const status = await ports.renditions.setPercent(renditionId, Math.min(99, percent));
  if (!status) throw new AppError('not_found', `No rendition ${renditionId}.`);
  return { status };
}

export async function failRendition(
  ports: WorkPorts,
  renditionId: string,
  reason: string,
): Promise<{ status: string }> {
  const status = await ports.renditions.markFailed(renditionId, reason);
  if (!status) throw new AppError('not_found', `No rendition ${renditionId}.`);
  ports.logger.warn('rendition failed', { renditionId, reason });
  return { status };
}
