import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ConfigError } from '@postbus/kit';

const run = promisify(execFile);

/**
 * Every stored file is read by ffprobe: a media service without it would refuse every upload,
 * so it refuses to start instead, naming the variable to fix.
 */
export async function assertFfprobe(ffprobePath: string): Promise<void> {
  try {
    await run(ffprobePath, ['-version'], { timeout: 10_000 });
  } catch (err) {
    throw new ConfigError([
      `FFPROBE_PATH: ${ffprobePath} does not run (${(err as Error).message.split('\n')[0]}); install Debian's ffmpeg package or point FFPROBE_PATH at ffprobe`,
    ]);
  }
}
