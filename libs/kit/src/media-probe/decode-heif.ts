import { execFile } from 'node:child_process';
import { ProbeFailure } from './run-ffprobe';

/**
 * Decodes the primary image of a HEIC/HEIF file to a PNG or JPEG (by `output`'s extension) with
 * libheif's heif-convert (Debian package libheif-examples), which applies the file's rotation and
 * mirroring. Debian 12's ffmpeg (5.1) cannot read HEIF image items, so HEIC is probed and
 * converted through this. Killed past `timeoutMs`; rejects with ProbeFailure when the file cannot
 * be decoded, with another error when heif-convert itself cannot run.
 * https://github.com/strukturag/libheif (examples/heif_convert.cc)
 */
export function decodeHeif(heifConvertPath: string, input: string, output: string, timeoutMs: number): Promise<void> {
  const args = output.endsWith('.jpg') ? ['-q', '92', input, output] : [input, output];
  return new Promise((resolve, reject) => {
    const child = execFile(
      heifConvertPath,
      args,
      { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 },
      (err, _stdout, stderr) => {
        if (!err) return resolve();
        const e = err as NodeJS.ErrnoException & { killed?: boolean };
        if (e.code === 'ENOENT' || e.code === 'EACCES') return reject(e);
        if (e.killed) return reject(new ProbeFailure('timeout', `heif-convert did not finish within ${timeoutMs} ms`));
        reject(new ProbeFailure('unreadable', String(stderr).trim().split('\n')[0] || 'heif-convert failed'));
      },
    );
    child.stdin?.end();
  });
}
