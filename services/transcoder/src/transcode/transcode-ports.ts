import type { Logger } from '@postbus/kit';
import type { Principal, RenditionWork } from '@postbus/contracts';
import type { EncodeSettings } from './render-plan';

/** What the transcoder works through; wired by hand in main.ts. */
export interface TranscodePorts {
  /** Media's RPCs for one rendition job. */
  media: {
    start(principal: Principal, renditionId: string): Promise<RenditionWork>;
    progress(principal: Principal, renditionId: string, percent: number): Promise<{ status: string }>;
    fail(principal: Principal, renditionId: string, reason: string): Promise<{ status: string }>;
  };
  /** Media's own HTTP listener: the signed source and upload paths are under it. */
  mediaHttpUrl: string;
  ffmpegPath: string;
  /** libheif's heif-convert: a HEIC source is decoded to a PNG before ffmpeg reads it. */
  heifConvertPath: string;
  encode: EncodeSettings;
  timeoutMs: number;
  /** Directory the source and the output are written to while a job runs. */
  workDir: string;
  /** Least time between two progress reports of one job. */
  progressEveryMs: number;
  logger: Logger;
}
