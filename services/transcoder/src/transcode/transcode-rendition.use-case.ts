import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { systemPrincipal, type Principal } from '@postbus/contracts';
import { decodeHeif, ProbeFailure } from '@postbus/kit';
import { parseRenditionPreset } from '@postbus/platforms';
import { NotNormalizable, renderPlan, type RenderPlan } from './render-plan';
import { downloadSource, uploadRendition } from './media-transfer';
import { FfmpegFailure, runFfmpeg } from './run-ffmpeg';
import type { TranscodePorts } from './transcode-ports';
import { makeWorkDir } from './work-dirs';

export interface RenditionJob {
  renditionId: string;
  accountId: string;
}

/**
 * Makes one rendition: asks media for the job (a rendition already made or failed is left
 * alone, so a redelivered job does nothing), copies the source to a private directory, runs
 * ffmpeg on it with the preset's plan, and PUTs the result to the path media signed for it.
 * A source that cannot become the preset, or that ffmpeg cannot read or finish in time, fails
 * the rendition with a reason a person can act on; trouble reaching media throws, and the job
 * is retried.
 */
export async function transcodeRendition(
  ports: TranscodePorts,
  job: RenditionJob,
): Promise<'ready' | 'failed' | 'skipped'> {
  // The transcoder acts for the account whose rendition it makes.
  const principal = systemPrincipal({ service: 'transcoder', accountId: job.accountId, scopes: ['media:write'] });
  const work = await ports.media.start(principal, job.renditionId);
  if (work.status !== 'processing') return 'skipped';
  const fail = async (reason: string) => {
    await ports.media.fail(principal, job.renditionId, reason);
    return 'failed' as const;
  };
  const preset = parseRenditionPreset(work.preset);
  if (!preset) return fail(`No rendition preset named ${work.preset}.`);
  if (!work.sourceProbe)
    return fail('Its source media was stored before files were probed; upload it again to normalize it.');
  let plan: RenderPlan;
  try {
    plan = renderPlan(work.sourceProbe, preset, ports.encode);
  } catch (err) {
    if (err instanceof NotNormalizable) return fail(err.message);
    throw err;
  }
  const dir = await makeWorkDir(ports.workDir);
  try {
    const source = join(dir, 'source');
    const output = join(dir, plan.kind === 'video' ? 'rendition.mp4' : 'rendition.jpg');
    await downloadSource(new URL(work.sourcePath, ports.mediaHttpUrl), source);
    // ffmpeg cannot read a HEIC photo: libheif decodes it to a PNG first.
    const input = work.sourceProbe.container === 'heif' ? join(dir, 'source.png') : source;
    try {
      if (input !== source) await decodeHeif(ports.heifConvertPath, source, input, ports.timeoutMs);
      await runFfmpeg({
        ffmpegPath: ports.ffmpegPath,
        input,
        output,
        inputArgs: plan.inputArgs,
        args: plan.args,
        timeoutMs: ports.timeoutMs,
        durationSec: plan.durationSec,
        onProgress: progressReporter(ports, principal, job.renditionId),
      });
    } catch (err) {
      if (err instanceof ProbeFailure) return fail(`The HEIC photo could not be decoded: ${err.message}`);
      if (!(err instanceof FfmpegFailure)) throw err;
      return fail(
        err.reason === 'timeout'
          ? `Making it took longer than ${Math.round(ports.timeoutMs / 1000)} s; try a shorter or smaller file.`
          : `ffmpeg could not convert the source: ${err.message}`,
      );
    }
    await uploadRendition(output, new URL(work.uploadPath, ports.mediaHttpUrl));
    return 'ready';
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Reports progress at most every progressEveryMs, one report in flight at a time; a lost report is not an error. */
function progressReporter(ports: TranscodePorts, principal: Principal, renditionId: string): (percent: number) => void {
  let last = 0;
  let sending = false;
  return (percent) => {
    const now = Date.now();
    if (sending || now - last < ports.progressEveryMs) return;
    last = now;
    sending = true;
    ports.media
      .progress(principal, renditionId, percent)
      .catch((err: Error) => ports.logger.debug('progress not reported', { renditionId, err: err.message }))
      .finally(() => (sending = false));
  };
}
