import {
  fetchTikTokPublishStatus,
  getTikTokEngagement,
  parseJson,
  parseLosslessJson,
  quoteUnsafeIntegers,
} from '../src';

const ID = '7088122496758679353';

/** A fetch that answers one raw body, as the platform writes it. */
const answering = (body: string) =>
  (async () =>
    new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })) as unknown as typeof fetch;

describe('parsing platform JSON without losing 64-bit integers', () => {
  test('when a 19-digit id arrives as a JSON number, then it comes back as its exact digits', () => {
    expect(parseLosslessJson(`{"ids":[${ID}, -${ID}],"n":${ID}}`)).toEqual({ ids: [ID, `-${ID}`], n: ID });
  });

  test('when integers are safe, or numbers have a fraction or exponent, then they stay numbers', () => {
    expect(
      parseLosslessJson('{"a":9007199254740991,"b":-12,"c":1.5,"d":12345678901234567890.5,"e":1e21,"f":0}'),
    ).toEqual({
      a: 9007199254740991,
      b: -12,
      c: 1.5,
      d: 12345678901234567890.5,
      e: 1e21,
      f: 0,
    });
  });

  test('when the digits are inside a string (escaped quotes too), then the string is untouched', () => {
    const text = `{"t":"id ${ID} \\" ${ID}","k\\\\":"${ID}"}`;
    expect(quoteUnsafeIntegers(text)).toBe(text);
    expect(parseLosslessJson(text)).toEqual({ t: `id ${ID} " ${ID}`, 'k\\': ID });
  });

  test('when the text is not JSON, then it still is not (a leading zero is not quoted into a string)', () => {
    expect(parseJson(`[0${ID}]`)).toBeUndefined();
    expect(parseJson('not json')).toBeUndefined();
  });

  test('when TikTok reports PUBLISH_COMPLETE with an int64 post id, then the exact id is read', async () => {
    const body = `{"data":{"status":"PUBLISH_COMPLETE","publicaly_available_post_id":[${ID}],"uploaded_bytes":2500},"error":{"code":"ok","message":"","log_id":"x"}}`;
    const state = await fetchTikTokPublishStatus(
      { baseUrl: 'https://open.tiktokapis.example', accessToken: 't', fetchImpl: answering(body) },
      'v_pub',
    );
    expect(state.postIds).toEqual([ID]);
    expect(state.uploadedBytes).toBe(2500);
  });

  test('when video/query lists the video with a numeric id, then it is matched by its exact id', async () => {
    const body = `{"data":{"videos":[{"id":${ID},"view_count":7,"like_count":1,"comment_count":0,"share_count":2}],"cursor":0,"has_more":false},"error":{"code":"ok","message":"","log_id":"x"}}`;
    const engagement = await getTikTokEngagement(
      { baseUrl: 'https://open.tiktokapis.example', accessToken: 't', fetchImpl: answering(body) },
      ID,
    );
    expect(engagement).toEqual({ views: 7, likes: 1, comments: 0, shares: 2 });
  });
});
