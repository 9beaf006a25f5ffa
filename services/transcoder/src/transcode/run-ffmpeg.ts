import { spawn } from 'node:child_process';

export interface FfmpegRun {
  ffmpegPath: string;
  input: string;
  output: string;
  /** Arguments before the input (a RenderPlan's inputArgs). */
  inputArgs?: string[];
  /** Arguments between the input and the output (a RenderPlan's). */
  args: string[];
  /** SIGKILL past this. */
  timeoutMs: number;
  /** Seconds of output the run will make, for progress; null when unknown. */
  durationSec: number | null;
  /** Called with 0–100 as ffmpeg reports its position (at most as often as it reports). */
  onProgress?(percent: number): void;
}

export class FfmpegFailure extends Error {
  constructor(
    readonly reason: 'failed' | 'timeout',
    message: string,
  ) {
    super(message);
    this.name = 'FfmpegFailure';
  }
}

/**
 * Runs ffmpeg as a child process (the event loop only waits), killed past the timeout. Progress
 * comes from `-progress pipe:1` (key=value lines; out_time_us is the position reached), the
 * first lines of stderr make the failure's message. https://ffmpeg.org/ffmpeg.html#Main-options
 */
export function runFfmpeg(run: FfmpegRun): Promise<void> {
  const args = [
    '-nostdin',
    '-hide_banner',
    '-v',
    'error',
    '-y',
    ...(run.inputArgs ?? []),
    '-i',
    run.input,
    ...run.args,
    '-progress',
    'pipe:1',
    '-nostats',
    run.output,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(run.ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let pending = '';
    let failure: Error | undefined;
    const timer = setTimeout(() => {
      failure ??= new FfmpegFailure('timeout', `ffmpeg did not finish within ${run.timeoutMs} ms`);
      child.kill('SIGKILL');
    }, run.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^out_time_us=(\d+)/.exec(line);
        if (m && run.durationSec) run.onProgress?.(Math.min(100, Math.floor(Number(m[1]) / 1e4 / run.durationSec)));
        else if (line === 'progress=end') run.onProgress?.(100);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(failure ?? err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (failure) return reject(failure);
      if (code !== 0)
        return reject(
          new FfmpegFailure('failed', stderr.trim().split('\n').slice(0, 2).join(' ') || `ffmpeg exited with ${code}`),
        );
      resolve();
    });
  });
}
