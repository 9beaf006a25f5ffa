import type { Readable } from 'node:stream';

/** Inclusive byte positions, as in an HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Where media bytes live. Objects are written once under a fresh key and never changed. */
export interface MediaStore {
  /** Streams `body` into a new object; when it fails, nothing is left under `key`. */
  put(key: string, body: Readable): Promise<void>;
  /** Reads the object, or one byte range of it. */
  open(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
}
