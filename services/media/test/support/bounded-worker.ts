import { Worker, type MessagePort } from 'node:worker_threads';

/**
 * Runs calls that might never return (a parser looping on a crafted header) in a worker thread,
 * so a hang fails a test instead of freezing the test process: the worker writes each input to
 * shared memory before the call, and when the time is up it is terminated and that input named.
 */

/** The largest input the slot keeps (longer ones are kept cut, with their real length). */
const SLOT_BYTES = 16 * 1024;

export type WorkerOutcome<T> =
  { returned: true; result: T } | { returned: false; stuckOnLength: number; stuckOn: string };

const READY = 'bounded-worker:ready';

/** Called in the worker once it has loaded, before the calls: the time bound starts then. */
export function announceReady(port: MessagePort): void {
  port.postMessage(READY);
}

/** Called in the worker before each call that might hang. */
export function recordInput(slot: SharedArrayBuffer, bytes: Uint8Array): void {
  const length = new Int32Array(slot, 0, 1);
  new Uint8Array(slot, 4, SLOT_BYTES).set(bytes.subarray(0, SLOT_BYTES));
  Atomics.store(length, 0, bytes.length);
}

/**
 * Starts `file` (TypeScript, loaded through tsx) in a worker with `{ slot, ...data }` as its
 * workerData and waits for its answer, or `timeoutMs` after it announced itself ready (a generous
 * bound on the calls alone, not a measure: loading a slow machine's worker does not count).
 */
export function runBounded<T>(
  file: string,
  data: Record<string, unknown>,
  timeoutMs: number,
): Promise<WorkerOutcome<T>> {
  const slot = new SharedArrayBuffer(4 + SLOT_BYTES);
  const source = `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(file)});`;
  const worker = new Worker(source, { eval: true, workerData: { slot, ...data } });
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const giveUp = () => {
      void worker.terminate();
      const length = Atomics.load(new Int32Array(slot, 0, 1), 0);
      const kept = Buffer.from(new Uint8Array(slot, 4, Math.min(length, SLOT_BYTES)));
      resolve({ returned: false, stuckOnLength: length, stuckOn: kept.toString('hex') });
    };
    worker.on('message', (message: T | typeof READY) => {
      if (message === READY) return void (timer = setTimeout(giveUp, timeoutMs));
      clearTimeout(timer);
      void worker.terminate();
      resolve({ returned: true, result: message });
    });
    worker.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited (code ${code}) without answering`));
    });
  });
}
