import { PeriodicLoop } from '../src';
import { waitFor } from '../../testing/src/wait';

describe('periodic loop', () => {
  it('when a run throws, then the error is handed on and the loop keeps running', async () => {
    const errors: string[] = [];
    let runs = 0;
    const loop = new PeriodicLoop(
      () => {
        runs++;
        return runs === 1 ? Promise.reject(new Error('database away')) : Promise.resolve();
      },
      { everyMs: 5, onError: (err) => errors.push(err.message) },
    ).start();

    await waitFor(() => (runs >= 3 ? true : undefined));
    await loop.stop();

    expect(errors).toEqual(['database away']);
  });

  it('when a run is slow, then the next one waits for it: runs never overlap', async () => {
    let inFlight = 0;
    let most = 0;
    let runs = 0;
    const loop = new PeriodicLoop(
      async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 15));
        inFlight--;
        runs++;
      },
      { everyMs: 1 },
    ).start();

    await waitFor(() => (runs >= 4 ? true : undefined));
    await loop.stop();

    expect(most).toBe(1);
  });

  it('when stopped during a run, then stop waits for that run to end, says it is stopping, and no run follows', async () => {
    let release!: () => void;
    const started: boolean[] = [];
    let finished = 0;
    const loop: PeriodicLoop = new PeriodicLoop(
      async () => {
        started.push(loop.stopping);
        await new Promise<void>((r) => (release = r));
        finished++;
      },
      { everyMs: 1 },
    ).start();

    await waitFor(() => (started.length === 1 ? true : undefined));
    const stopped = loop.stop();
    expect(loop.stopping).toBe(true);
    release();
    await stopped;

    expect(finished).toBe(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(started).toEqual([false]);
  });

  it('when started to run at once and a run says more is waiting, then the runs follow each other without waiting a period', async () => {
    const batches = [50, 50, 7];
    const done: number[] = [];
    const loop = new PeriodicLoop(
      () => {
        const n = batches.shift() ?? 0;
        done.push(n);
        return Promise.resolve(n);
      },
      { everyMs: 3_600_000, immediately: true, again: (n) => n === 50 },
    ).start();

    await waitFor(() => (done.length === 3 ? true : undefined), { timeoutMs: 5000 });
    await loop.stop();

    expect(done).toEqual([50, 50, 7]);
  });
});
