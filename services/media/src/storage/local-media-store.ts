import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MissingObjectError, type ByteRange, type MediaStore } from './media-store';

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9/_-]*$/;

/** A directory on local disk: the development default. Writes go to `<key>.part` and are renamed when complete. */
export class LocalMediaStore implements MediaStore {
  private readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  private pathOf(key: string): string {
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key ${JSON.stringify(key)}`);
    return join(this.root, key);
  }

  async put(key: string, body: Readable): Promise<void> {
    const path = this.pathOf(key);
    const part = `${path}.part`;
    await mkdir(dirname(path), { recursive: true });
    const out = createWriteStream(part, { flags: 'wx' });
    try {
      await pipeline(body, out);
      await rename(part, path);
    } catch (err) {
      // A body refused at its first bytes fails the pipeline while the file may still be opening:
      // remove it only once the stream has let go of it, or the open would bring it back.
      await closed(out);
      await rm(part, { force: true });
      throw err;
    }
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    const handle = await open(this.pathOf(key), 'r').catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'ENOENT' ? new MissingObjectError(key) : err;
    });
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async exists(key: string): Promise<boolean> {
    // A `.part` file is an upload still being written: only the renamed file counts.
    const found = await stat(this.pathOf(key)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    return !!found?.isFile();
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await rm(path, { force: true });
    await rm(`${path}.part`, { force: true });
  }
}

function closed(stream: WriteStream): Promise<void> {
  if (stream.closed) return Promise.resolve();
  return new Promise((resolve) => stream.once('close', () => resolve()));
}
