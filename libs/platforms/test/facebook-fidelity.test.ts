import {
  FACEBOOK_SCOPES,
  facebookErrorFromResponse,
  finishFacebookReel,
  instagramErrorFromResponse,
  publishFacebookVideo,
  threadsErrorFromResponse,
} from '../src';

/** A fetch that records each request and answers the next body in line. */
function recorder(...answers: unknown[]) {
  const requests: { url: URL; method: string; body: string | undefined; contentType: string | undefined }[] = [];
  const fetchImpl = (async (input: URL | string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    requests.push({
      url: new URL(String(input)),
      method: init.method ?? 'GET',
      body: init.body as string | undefined,
      contentType: headers.get('content-type') ?? undefined,
    });
    return new Response(JSON.stringify(answers.shift() ?? {}), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as unknown as typeof fetch;
  return { requests, fetchImpl };
}

const graph = 'https://graph.facebook.com/v26.0';

describe('Facebook calls as the official pages describe them', () => {
  test('when a reel is finished with a 2,000-character caption, then every field travels in the form body and the URL stays short', async () => {
    const { requests, fetchImpl } = recorder({ success: true });
    const caption = 'A long caption for a reel. '.repeat(80).slice(0, 2000);
    await finishFacebookReel(
      { baseUrl: graph, accessToken: 'page-token', pageId: '42', fetchImpl },
      { videoId: '9001', description: caption },
    );

    const [req] = requests;
    expect(req.method).toBe('POST');
    expect(req.url.toString()).toBe(`${graph}/42/video_reels`);
    expect(req.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({
      upload_phase: 'finish',
      video_id: '9001',
      video_state: 'PUBLISHED',
      description: caption,
    });
  });

  test('when a Page video is published by file_url, then it goes to the Graph base URL: graph-video.facebook.com is retired', async () => {
    const { requests, fetchImpl } = recorder({ id: '777' }, { id: '777', permalink_url: '/reel/777' });
    await publishFacebookVideo(
      { baseUrl: graph, accessToken: 't', pageId: '42', fetchImpl },
      { fileUrl: 'https://cdn.example/v.mp4', description: 'D' },
    );
    expect(requests.map((r) => `${r.method} ${r.url.origin}${r.url.pathname}`)).toEqual([
      `POST ${graph}/42/videos`,
      `GET ${graph}/777`,
    ]);
  });

  test('when Facebook Login is asked for, then publish_video (Live Video) is not among the scopes', () => {
    expect(FACEBOOK_SCOPES).toEqual([
      'pages_show_list',
      'pages_read_engagement',
      'pages_manage_posts',
      'pages_manage_engagement',
      'read_insights',
    ]);
  });
});

describe('which Graph codes mean a bad token', () => {
  const meta = (code: number, subcode?: number) => ({
    error: {
      message: `(#${code}) Something`,
      type: 'OAuthException',
      code,
      ...(subcode && { error_subcode: subcode }),
    },
  });
  const mappers = {
    facebook: (body: unknown) => facebookErrorFromResponse({ status: 400, headers: new Headers(), body }),
    instagram: (body: unknown) => instagramErrorFromResponse({ status: 400, headers: new Headers(), body }),
    threads: (body: unknown) => threadsErrorFromResponse({ status: 400, headers: new Headers(), body }),
  };

  test.each(Object.keys(mappers))(
    'when %s answers code 2500 ("Unknown path components"), then the token is not blamed',
    (platform) => {
      const err = mappers[platform as keyof typeof mappers]({
        error: { message: 'Unknown path components: /v26.0/42/vidoes', type: 'OAuthException', code: 2500 },
      });
      expect(err.tokenRejected).toBe(false);
      expect(err.transient).toBe(false);
    },
  );

  test.each(Object.keys(mappers))(
    'when %s answers 190 (with or without a subcode) or 102, then the token is reported refused',
    (platform) => {
      const map = mappers[platform as keyof typeof mappers];
      for (const body of [meta(190), meta(190, 460), meta(190, 463), meta(102)])
        expect(map(body).tokenRejected).toBe(true);
    },
  );
});
