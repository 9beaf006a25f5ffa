import { publishToThreads, type PublishToThreadsOptions } from '../src';

/**
 * The client's own decisions, against a scripted Threads: which calls it makes and how it
 * reads failures that the sandbox cannot produce on demand (a connection refused or reset).
 */

type Script = (method: string, url: URL, body: URLSearchParams) => Response | Promise<Response>;

function scripted(script: Script) {
  const calls: string[] = [];
  const fetchImpl = (async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    calls.push(`${method} ${url.pathname}${url.search}`);
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer tok');
    return script(method, url, new URLSearchParams(typeof init?.body === 'string' ? init.body : ''));
  }) as typeof fetch;
  return { calls, fetchImpl };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A Threads that answers every step successfully, with an override hook per step. */
function happyThreads(override: Partial<Record<'create' | 'status' | 'publish' | 'permalink', Script>> = {}): Script {
  let next = 100;
  return (method, url, body) => {
    if (method === 'POST' && url.pathname.endsWith('/threads'))
      return override.create?.(method, url, body) ?? json({ id: String(next++) });
    if (method === 'POST' && url.pathname.endsWith('/threads_publish'))
      return override.publish?.(method, url, body) ?? json({ id: 'm1' });
    if (url.searchParams.get('fields') === 'status,error_message')
      return override.status?.(method, url, body) ?? json({ status: 'FINISHED' });
    return (
      override.permalink?.(method, url, body) ?? json({ id: 'm1', permalink: 'https://www.threads.net/@u/post/abc' })
    );
  };
}

function options(fetchImpl: typeof fetch, overrides: Partial<PublishToThreadsOptions> = {}): PublishToThreadsOptions {
  return {
    baseUrl: 'https://graph.example/v1.0/',
    userId: 'u1',
    accessToken: 'tok',
    text: 'hi',
    mediaUrls: [],
    fetchImpl,
    pollIntervalMs: 1,
    ...overrides,
  };
}

async function errorOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

describe('publishToThreads against a scripted Threads', () => {
  test('when a carousel is published, then children are created as items, then the parent, then one publish', async () => {
    const { calls, fetchImpl } = scripted(happyThreads());
    const bodies: string[] = [];
    const recording: typeof fetch = (input, init) => {
      if (typeof init?.body === 'string') bodies.push(init.body);
      return fetchImpl(input, init);
    };

    const result = await publishToThreads(
      options(recording, { mediaUrls: ['https://c/a.jpg', 'https://c/b.MOV?x=1'] }),
    );

    expect(result).toEqual({
      platformPostId: 'm1',
      permalink: 'https://www.threads.net/@u/post/abc',
      containerId: '102',
    });
    expect(bodies).toEqual([
      'media_type=IMAGE&image_url=https%3A%2F%2Fc%2Fa.jpg&is_carousel_item=true',
      'media_type=VIDEO&video_url=https%3A%2F%2Fc%2Fb.MOV%3Fx%3D1&is_carousel_item=true',
      'media_type=CAROUSEL&children=100%2C101&text=hi',
    ]);
    expect(calls.filter((c) => c.startsWith('POST /v1.0/u1/threads_publish'))).toEqual([
      'POST /v1.0/u1/threads_publish?creation_id=102',
    ]);
  });

  test('when the connection is refused at creation, then the error is transient and nothing can have been published', async () => {
    const { fetchImpl } = scripted(() => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) });
    });

    const err = await errorOf(publishToThreads(options(fetchImpl)));

    expect(err).toMatchObject({ transient: true, code: 'unreachable', outcomeUnknown: false });
    expect(err.message).toBe('Threads could not be reached; publishing will be tried again.');
  });

  test('when the connection resets during the publish call, then the outcome is unknown and the container id is given', async () => {
    const { fetchImpl } = scripted(
      happyThreads({
        publish: () => {
          throw new TypeError('fetch failed', {
            cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
          });
        },
      }),
    );

    const err = await errorOf(publishToThreads(options(fetchImpl)));

    expect(err).toMatchObject({ transient: true, code: 'network_error', outcomeUnknown: true, containerId: '100' });
  });

  test('when the publish call is refused with a Meta error, then the outcome is known (not published)', async () => {
    const { fetchImpl } = scripted(
      happyThreads({
        publish: () => json({ error: { code: 4, message: '(#4) Application request limit reached' } }, 400),
      }),
    );

    const err = await errorOf(publishToThreads(options(fetchImpl)));

    expect(err).toMatchObject({ transient: true, code: 4, outcomeUnknown: false, containerId: '100' });
  });

  test('when the permalink cannot be read, then the publish still succeeds with a null permalink', async () => {
    const { fetchImpl } = scripted(happyThreads({ permalink: () => json({ error: { code: 1 } }, 500) }));

    const result = await publishToThreads(options(fetchImpl));

    expect(result).toEqual({ platformPostId: 'm1', permalink: null, containerId: '100' });
  });

  test('when the container ends EXPIRED, then the error is permanent and says to publish again', async () => {
    const { calls, fetchImpl } = scripted(happyThreads({ status: () => json({ status: 'EXPIRED', id: '100' }) }));

    const err = await errorOf(publishToThreads(options(fetchImpl)));

    expect(err).toMatchObject({ transient: false, code: 'EXPIRED', containerId: '100' });
    expect(err.message).toMatch(/expired.*publish the post again/);
    expect(calls.some((c) => c.includes('threads_publish'))).toBe(false);
  });

  test('when there is neither text nor media, then it is refused before any call', async () => {
    const { calls, fetchImpl } = scripted(happyThreads());

    const err = await errorOf(publishToThreads(options(fetchImpl, { text: '  ' })));

    expect(err).toMatchObject({ transient: false, code: 'missing_content' });
    expect(calls).toEqual([]);
  });

  test('when there are more than 20 media, then it is refused before any call', async () => {
    const { calls, fetchImpl } = scripted(happyThreads());
    const mediaUrls = Array.from({ length: 21 }, (_, i) => `https://c/${i}.jpg`);

    const err = await errorOf(publishToThreads(options(fetchImpl, { mediaUrls })));

    expect(err).toMatchObject({ transient: false, code: 'too_many_media' });
    expect(calls).toEqual([]);
  });
});
