import { spawn } from 'node:child_process';

export interface FfprobeLimits {
  /** The process is killed past this many milliseconds. */
  timeoutMs: number;
  /** Bytes of JSON read at most; a file that makes ffprobe say more is not one Postbus publishes. */
  maxOutputBytes: number;
}

/** What ffprobe answered for a file it could open. */
export interface FfprobeOutput {
  format?: { format_name?: string; duration?: string; bit_rate?: string };
  streams?: FfprobeStream[];
}

export interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  bit_rate?: string;
  pix_fmt?: string;
  color_space?: string;
  color_transfer?: string;
  color_primaries?: string;
  channels?: number;
  sample_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: { side_data_type?: string; rotation?: number }[];
}

/** ffprobe could not read the file (`reason: 'unreadable'`) or did not finish in time (`'timeout'`). */
export class ProbeFailure extends Error {
  constructor(
    readonly reason: 'unreadable' | 'timeout',
    detail: string,
  ) {
    super(detail);
    this.name = 'ProbeFailure';
  }
}

/**
 * How much of a file ffprobe reads to find its streams, and over how much of its timeline
 * (microseconds): enough for any file under the 50 MB upload limit to name its streams, bounded
 * so that a crafted file cannot keep it reading.
 */
const PROBE_SIZE = String(16 * 1024 * 1024);
const ANALYZE_DURATION = String(15_000_000);

/**
 * Runs ffprobe on a local file as a child process (the event loop only waits for it), within a
 * time limit (SIGKILL past it) and an output cap. Rejects with ProbeFailure when ffprobe cannot
 * read the file; with another error when ffprobe itself cannot run (a deployment fault).
 * Options: https://ffmpeg.org/ffprobe.html#Options
 */
export function runFfprobe(ffprobePath: string, file: string, limits: FfprobeLimits): Promise<FfprobeOutput> {
  const args = [
    '-v',
    'error',
    '-probesize',
    PROBE_SIZE,
    '-analyzeduration',
    ANALYZE_DURATION,
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    file,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(ffprobePath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let failure: Error | undefined;
    const stop = (err: Error) => {
      failure ??= err;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => stop(new ProbeFailure('timeout', `ffprobe did not finish within ${limits.timeoutMs} ms`)),
      limits.timeoutMs,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > limits.maxOutputBytes)
        stop(new ProbeFailure('unreadable', `ffprobe answered more than ${limits.maxOutputBytes} bytes`));
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2048) stderr += chunk.toString('utf8');
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(failure ?? err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (failure) return reject(failure);
      if (code !== 0)
        return reject(new ProbeFailure('unreadable', stderr.trim().split('\n')[0] || `ffprobe exited with ${code}`));
      try {
        resolve(JSON.parse(Buffer.concat(out).toString('utf8')) as FfprobeOutput);
      } catch {
        reject(new ProbeFailure('unreadable', 'ffprobe answered no JSON'));
      }
    });
  });
}
