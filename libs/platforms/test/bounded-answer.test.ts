import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerTooLarge, fetchStreamed, nodeFetch, readBoundedAnswer } from '../src';
import { answerWithoutEnd } from './support/endless-answer';

const KIB = 1024;
const MIB = 1024 * KIB;

/** A body that never ends: each pull hands out one more chunk, counted, and a cancel is recorded. */
function endlessBody(chunkBytes: number): {
  stream: ReadableStream<Uint8Array>;
  pulls: () => number;
  cancelled: () => boolean;
} {
  let pulls = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulls += 1;
        controller.enqueue(new Uint8Array(chunkBytes).fill(0x61));
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulls: () => pulls, cancelled: () => cancelled };
}

/** A body made of the given pieces, one chunk each. */
function piecewise(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < pieces.length) controller.enqueue(pieces[i++]);
      else controller.close();
    },
  });
}

describe('readBoundedAnswer', () => {
  test('when the body never ends, then reading stops at the limit, the stream is cancelled and only the chunks up to it were pulled', async () => {
    const body = endlessBody(64 * KIB);

    const answer = await readBoundedAnswer(new Response(body.stream), MIB);

    expect(answer.cut).toBe(true);
    expect(answer.text).toHaveLength(MIB);
    expect(body.cancelled()).toBe(true);
    expect(body.pulls()).toBeLessThanOrEqual(MIB / (64 * KIB) + 2);
  });

  test('when the Content-Length is above the limit, then the answer is refused before a single chunk is pulled', async () => {
    const body = endlessBody(64 * KIB);
    const res = new Response(body.stream, { headers: { 'content-length': String(10 * MIB) } });

    const answer = await readBoundedAnswer(res, MIB);

    expect(answer).toEqual({ text: '', cut: true });
    expect(body.pulls()).toBe(0);
    expect(body.cancelled()).toBe(true);
  });

  test('when multi-byte characters are split between chunks, then they decode whole', async () => {
    const text = '{"caption":"héllo 😀 ü ✓ 日本"}';
    const bytes = new TextEncoder().encode(text);
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += 3) pieces.push(bytes.subarray(at, at + 3)); // 3-byte chunks split every 4-byte emoji

    const answer = await readBoundedAnswer(new Response(piecewise(pieces)), MIB);

    expect(answer).toEqual({ text, cut: false });
  });

  test('when the limit falls inside a multi-byte character, then the cut text ends before it instead of with a replacement character', async () => {
    const bytes = new TextEncoder().encode('ab😀cd'); // the emoji takes bytes 2..5

    const answer = await readBoundedAnswer(new Response(piecewise([bytes])), 4);

    expect(answer).toEqual({ text: 'ab', cut: true });
  });

  test('when the body is under the limit, then the whole text is answered', async () => {
    const answer = await readBoundedAnswer(new Response('{"id":"1"}'), 16);

    expect(answer).toEqual({ text: '{"id":"1"}', cut: false });
  });

  test('when an answer has no body, then the text is empty and not cut', async () => {
    const answer = await readBoundedAnswer(new Response(null, { status: 204 }), 16);

    expect(answer).toEqual({ text: '', cut: false });
  });
});

describe('readBoundedAnswer over a local server', () => {
  let server: http.Server;
  let base: string;
  /** Bytes each request was sent before the client hung up, once it did. */
  const hungUp: Promise<number>[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/silent') {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"id":'); // and then nothing, with the connection held open
        return;
      }
      if (req.url === '/declared') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * MIB) });
        res.write('{"data":"');
        hungUp.push(new Promise((resolve) => res.on('close', () => resolve(0))));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      hungUp.push(answerWithoutEnd(res, Buffer.alloc(64 * KIB, 0x61)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('when the server streams without end, then the read stops at the limit and the connection is closed', async () => {
    const res = await nodeFetch(`${base}/endless`);

    const answer = await readBoundedAnswer(res, MIB);

    expect(answer.cut).toBe(true);
    expect(answer.text).toHaveLength(MIB);
    const sent = await hungUp[hungUp.length - 1];
    expect(sent).toBeLessThan(32 * MIB); // what the socket buffers held, never the endless rest
  });

  test('when the server declares a Content-Length above the limit, then the connection is closed unread', async () => {
    const res = await nodeFetch(`${base}/declared`);

    const answer = await readBoundedAnswer(res, MIB);

    expect(answer).toEqual({ text: '', cut: true });
    await expect(hungUp[hungUp.length - 1]).resolves.toBe(0);
  });

  test('when the deadline passes while the body streams, then the read fails with the timeout', async () => {
    const res = await nodeFetch(`${base}/endless`, { signal: AbortSignal.timeout(200) });
    await new Promise((resolve) => setTimeout(resolve, 300)); // nothing reads meanwhile: the deadline alone must end it

    await expect(readBoundedAnswer(res, MIB)).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  test('when an upload is answered with headers and then a body that stops coming, then the read fails at the answer deadline', async () => {
    const res = await fetchStreamed(
      fetch,
      `${base}/silent`,
      { method: 'PUT', body: new Response('bytes').body! },
      { answerTimeoutMs: 200 },
    );

    await expect(readBoundedAnswer(res, MIB)).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});

describe('answerTooLarge', () => {
  test('when an answer is refused, then the error names the platform, the call and the limit, and is not transient', () => {
    const err = answerTooLarge('youtube', 'GET /videos', MIB, { status: 200 });

    expect(err).toMatchObject({ platform: 'youtube', code: 'answer_too_large', transient: false, status: 200 });
    expect(err.message).toBe(
      'YouTube answered with more than 1 MiB (GET /videos); Postbus reads at most that much of an answer and left it unread.',
    );
  });
});
