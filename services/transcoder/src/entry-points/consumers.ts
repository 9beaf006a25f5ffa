import { Events } from '@postbus/contracts';
import type { Bus, EventConsumer } from '@postbus/bus';
import { transcodeRendition } from '../transcode/transcode-rendition.use-case';
import type { TranscodePorts } from '../transcode/transcode-ports';

/** The transcoder's work queue: its depth is what the deployment scales on. */
export const RENDITIONS_QUEUE = 'transcoder.renditions';

/** Competing consumers of media.rendition.requested: every transcoder process shares the queue; prefetch = concurrency. */
export function consumeRenditionJobs(
  bus: Bus,
  ports: TranscodePorts,
  opts: { concurrency: number; retryDelaysMs: number[]; done?(outcome: string): void },
): EventConsumer {
  return bus
    .consume({ queue: RENDITIONS_QUEUE, prefetch: opts.concurrency, retryDelaysMs: opts.retryDelaysMs })
    .on(Events.mediaRenditionRequested, async (event) => {
      const outcome = await transcodeRendition(ports, event.data);
      opts.done?.(outcome);
    });
}
