import { randomUUID } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import { AppError } from '@postbus/contracts';
import type { MediaStore } from '../storage/media-store';
import { MediaMeter, type MeterLimits } from './media-meter';

/** Bytes written to storage under a fresh key, measured on the way, not yet part of the library. */
export interface StagedObject {
  key: string;
  sha256: string;
  sizeBytes: number;
  contentType: string;
}

export function newObjectKey(): string {
  const id = randomUUID();
  return `objects/${id.slice(0, 2)}/${id}`;
}

/**
 * Streams `source` into storage through a MediaMeter. When a limit is crossed, the type is not
 * accepted or the source fails, the partial object is removed and the meter's reason is thrown.
 */
export async function stageObject(store: MediaStore, source: Readable, limits: MeterLimits): Promise<StagedObject> {
  const key = newObjectKey();
  const meter = new MediaMeter(limits);
  let reason: Error | undefined;
  meter.once('error', (err: Error) => (reason ??= err));
  const metered = pipeline(source, meter, (err) => {
    if (err) reason ??= err;
  });
  try {
    await store.put(key, metered);
  } catch (err) {
    await store.delete(key).catch(() => undefined);
    throw reason instanceof AppError ? reason : err;
  }
  if (!meter.contentType) {
    // Defensive: a store that answered without reading the whole body.
    await store.delete(key).catch(() => undefined);
    throw reason ?? new Error('storage finished before the body was read');
  }
  return { key, sha256: meter.sha256, sizeBytes: meter.sizeBytes, contentType: meter.contentType };
}
