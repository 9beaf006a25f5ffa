import { NetError, declaresMoreThan, readBoundedBody } from '../src';

/** A body that never ends, counting the chunks taken from it and whether it was stopped. */
function endless(chunkBytes: number) {
  const state = { pulled: 0, stopped: 0 };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (;;) {
      state.pulled += 1;
      yield new Uint8Array(chunkBytes);
    }
  }
  return { state, chunks: chunks(), stop: () => void (state.stopped += 1) };
}

describe('readBoundedBody', () => {
  test('when a body that never ends passes the limit, then it fails with too_large after one chunk past it and is stopped', async () => {
    const body = endless(1000);

    const read = readBoundedBody(body.chunks, { maxBytes: 10_000, stop: body.stop });

    await expect(read).rejects.toEqual(new NetError('too_large', 'the response is larger than 10000 bytes'));
    expect(body.state).toEqual({ pulled: 11, stopped: 1 });
  });

  test('when a body that never ends passes the limit with oversize truncate, then its first maxBytes are kept and it is stopped', async () => {
    const body = endless(1000);

    const read = await readBoundedBody(body.chunks, { maxBytes: 2500, oversize: 'truncate', stop: body.stop });

    expect(read.truncated).toBe(true);
    expect(read.bytes).toHaveLength(2500);
    expect(body.state).toEqual({ pulled: 3, stopped: 1 });
  });

  test('when a body ends within the limit, then all of it is answered and nothing is stopped', async () => {
    async function* two(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('ab');
      yield Buffer.from('cd');
    }
    const stop = jest.fn();

    const read = await readBoundedBody(two(), { maxBytes: 4, stop });

    expect(read).toEqual({ bytes: Buffer.from('abcd'), truncated: false });
    expect(stop).not.toHaveBeenCalled();
  });

  test('when a Content-Length is above, at or missing from the limit, then only the one above says more', () => {
    expect(declaresMoreThan('1001', 1000)).toBe(true);
    expect(declaresMoreThan('1000', 1000)).toBe(false);
    expect(declaresMoreThan(null, 1000)).toBe(false);
    expect(declaresMoreThan('junk', 1000)).toBe(false);
  });
});
