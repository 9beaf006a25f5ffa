import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Every job's private directory is named so: the transcoder's own, told apart from the rest of a shared temporary directory. */
const WORK_DIR_PREFIX = 'rendition-';

/** A fresh private directory for one job, under the configured work directory. */
export function makeWorkDir(workDir: string): Promise<string> {
  return mkdtemp(join(workDir, WORK_DIR_PREFIX));
}

/**
 * Removes the job directories a transcoder killed mid-job left behind (a job removes its own
 * when it ends, but not when its process dies): those not changed for `olderThanMs`, longer than
 * any job runs, so the directories of jobs still running in other processes sharing the work
 * directory are left alone. Answers the names removed.
 */
export async function removeStaleWorkDirs(workDir: string, olderThanMs: number, now = Date.now()): Promise<string[]> {
  const entries = await readdir(workDir, { withFileTypes: true }).catch(() => []);
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith(WORK_DIR_PREFIX)) continue;
    const path = join(workDir, entry.name);
    const changed = await stat(path).then(
      (s) => s.mtimeMs,
      () => now,
    );
    if (now - changed < olderThanMs) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}
