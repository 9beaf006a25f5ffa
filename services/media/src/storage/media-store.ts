import type { Readable } from 'node:stream';

/** Inclusive byte positions, as in an HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The object under `key` is not in storage although a row names it: the store was emptied, or
 * another checkout's database points at objects this one never held.
 */
export class MissingObjectError extends Error {
  constructor(readonly key: string) {
    super(`no stored object under ${key}`);
    this.name = 'MissingObjectError';
  }
}

/** Where media bytes live. Objects are written once under a fresh key and never changed. */
export interface MediaStore {
  /** Streams `body` into a new object; when it fails, nothing is left under `key`. */
  put(key: string, body: Readable): Promise<void>;
  /** Reads the object, or one byte range of it; MissingObjectError when there is none. */
  open(key: string, range?: ByteRange): Promise<Readable>;
  /** Whether a complete object is stored under `key`. */
  exists(key: string): Promise<boolean>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
}
