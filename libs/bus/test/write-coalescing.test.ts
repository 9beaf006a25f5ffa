import { readFileSync } from 'node:fs';
import type { BusConnection } from '../src';
import { openTestBus, randomNamespace } from './support';

let bus: BusConnection;

beforeAll(async () => {
  bus = await openTestBus(randomNamespace('writes'));
});
afterAll(() => bus?.close());

/** Write system calls this process has made so far (Linux). */
const writeCalls = () => Number(/syscw: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);

describe('writing to the broker', () => {
  test('when many messages are sent at once, then they leave in a few writes rather than one each', async () => {
    await bus.withChannel(async (ch) => {
      const body = Buffer.from(JSON.stringify({ hello: 'world' }));
      await ch.waitForConfirms();
      const before = writeCalls();
      // unroutable on the default exchange: the broker drops them, and confirms them all
      for (let i = 0; i < 200; i++) ch.publish('', `nowhere.${i}`, body);
      await ch.waitForConfirms();
      const writes = writeCalls() - before;
      expect(writes).toBeGreaterThan(0);
      expect(writes).toBeLessThan(20);
    });
  });
});
