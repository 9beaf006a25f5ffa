import { join } from 'node:path';
import { runBounded } from './support/bounded-worker';
import { ASF_ZERO_SIZE } from './support/media-headers';
import type { FuzzResult, FuzzWorkerData } from './support/sniff-fuzz.worker';

/**
 * The sniffer reads bytes from anyone: whatever they are, every call returns, with an accepted
 * type or none. Calls run in a worker thread, so a call that never returns fails the test (and
 * names its input) rather than freezing the test process, as file-type 16.5.4 froze media.
 */

const WORKER = join(__dirname, 'support', 'sniff-fuzz.worker.ts');
/** Far more than the runs need on a loaded machine: only a call that never returns reaches it. */
const HANG_BOUND_MS = 30_000;

const fuzz = (subject: FuzzWorkerData['subject'], numRuns: number, boundMs = HANG_BOUND_MS) =>
  runBounded<FuzzResult>(WORKER, { subject, numRuns }, boundMs);

describe('sniffMediaType under fuzzing', () => {
  test('when random bytes and mutated real headers of every format are sniffed, then every call returns an accepted type or none, and real headers keep their type', async () => {
    expect(await fuzz('sniffMediaType', 3000)).toEqual({ returned: true, result: { failures: [] } });
  }, 90_000);

  test('when a parser that walks declared sizes is fuzzed the same way, then the hang is caught and the 64-byte ASF header is named', async () => {
    expect(await fuzz('declaredSizeWalker', 10, 3_000)).toEqual({
      returned: false,
      stuckOnLength: 64,
      stuckOn: ASF_ZERO_SIZE.toString('hex'),
    });
  }, 60_000);
});
