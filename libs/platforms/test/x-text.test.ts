import { X_TEXT_MAX } from '@postbus/contracts';
import {
  assertXPost,
  createXPost,
  fitsXPost,
  isXPlanLimit,
  problemOf,
  xMediaCategory,
  xOAuth,
  xTextLength,
  type PlatformError,
} from '../src';

describe('counting an X post as X weighs it', () => {
  test('when the text is Latin, then each character counts 1, and 280 of them fit while 281 do not', () => {
    expect(xTextLength('plain text')).toBe(10);
    expect(fitsXPost('a'.repeat(X_TEXT_MAX))).toBe(true);
    expect(fitsXPost('a'.repeat(X_TEXT_MAX + 1))).toBe(false);
    // Curly quotes and the en dash sit in the light ranges of twitter-text's v3 configuration.
    expect(xTextLength('“a” – b')).toBe(7);
  });

  test('when the text is CJK or has emoji, then each CJK character and each emoji sequence counts 2', () => {
    expect(xTextLength('漢'.repeat(140))).toBe(280);
    expect(xTextLength('こんにちは')).toBe(10);
    expect(xTextLength('👍🏽')).toBe(2);
    expect(xTextLength('👨‍👩‍👧 ok')).toBe(5);
    expect(xTextLength('🇩🇪')).toBe(2);
  });

  test('when the text has links, then each counts 23 whatever its length, with or without its scheme, and closing punctuation is text', () => {
    expect(xTextLength(`see https://example.com/${'a'.repeat(300)}`)).toBe(4 + 23);
    expect(xTextLength('(https://example.com/a).')).toBe(1 + 23 + 2);
    expect(xTextLength('go to example.com now')).toBe(6 + 23 + 4);
  });

  test('when a character is decomposed, then it is counted after NFC normalization', () => {
    expect(xTextLength('e\u0301')).toBe(1);
  });
});

describe("telling the caller's own X app plan apart", () => {
  test('when X answers a usage cap, spent credits or an app not enrolled, then it is the plan; a plain 429 or 403 is not', () => {
    const usage = problemOf({
      title: 'UsageCapExceeded',
      detail: 'Usage cap exceeded: Monthly product cap',
      type: 'https://api.twitter.com/2/problems/usage-capped',
    });
    const enrol = problemOf({
      title: 'Client Forbidden',
      reason: 'client-not-enrolled',
      type: 'https://api.twitter.com/2/problems/client-forbidden',
    });
    const plain = problemOf({ title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank' });
    const duplicate = problemOf({
      errors: [{ message: 'You are not allowed to create a Tweet with duplicate content.' }],
    });
    expect(isXPlanLimit(429, usage)).toBe(true);
    expect(isXPlanLimit(403, enrol)).toBe(true);
    expect(isXPlanLimit(402, plain)).toBe(true);
    expect(isXPlanLimit(429, plain)).toBe(false);
    expect(isXPlanLimit(403, duplicate)).toBe(false);
  });

  test('when a media type is named, then X files it under its category', () => {
    expect(xMediaCategory('image/png')).toBe('tweet_image');
    expect(xMediaCategory('image/gif')).toBe('tweet_gif');
    expect(xMediaCategory('video/quicktime')).toBe('tweet_video');
  });
});

describe('the X consent link', () => {
  test('when a link is made, then it asks for the publishing scopes and offline.access with a PKCE S256 challenge', () => {
    const client = xOAuth({
      clientId: 'cid',
      clientSecret: 'secret',
      authorizeUrl: 'https://x.com/i/oauth2/authorize',
      apiUrl: 'https://api.x.com',
    });
    const url = new URL(
      client.authorizeUrl({ redirectUri: 'https://postbus.example/cb', state: 's1', codeChallenge: 'c'.repeat(43) }),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'cid',
      redirect_uri: 'https://postbus.example/cb',
      scope: 'tweet.read tweet.write users.read media.write offline.access',
      state: 's1',
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
    });
    expect(client).toMatchObject({ platform: 'x', pkce: true, rotatesRefreshToken: true });
  });
});

describe('what X refuses, found before any call', () => {
  const codeOf = (input: Parameters<typeof assertXPost>[0], media?: { videos?: number }) => {
    try {
      assertXPost(input, media);
      return undefined;
    } catch (err) {
      return (err as PlatformError).code;
    }
  };

  test('when the post is too long, has five images, mixes a video with images or is empty, then each is refused with its code', () => {
    expect(codeOf({ text: '漢'.repeat(141) })).toBe('text_too_long');
    expect(codeOf({ text: 'five', mediaIds: ['1', '2', '3', '4', '5'] })).toBe('too_many_media');
    expect(codeOf({ text: 'mixed', mediaIds: ['1', '2'] }, { videos: 1 })).toBe('mixed_media');
    expect(codeOf({ text: '  ' })).toBe('empty_post');
    expect(codeOf({ text: '漢'.repeat(140), mediaIds: ['1', '2', '3', '4'] })).toBeUndefined();
  });

  test('when a profile without a refresh token is refreshed, then it is refused as one to reconnect', async () => {
    const client = xOAuth({
      clientId: 'cid',
      clientSecret: 's',
      authorizeUrl: 'https://x.com/i/oauth2/authorize',
      apiUrl: 'https://api.x.com',
    });
    await expect(
      client.refresh({ platformUserId: '1', accessToken: 'a', refreshToken: null, expiresAt: null }),
    ).rejects.toMatchObject({ code: 'no_refresh_token', tokenRefused: true });
  });

  test('when X answers a post without its id, then it is invalid_answer with an unknown outcome: the post may be live', async () => {
    const answer = () =>
      Promise.resolve(
        new Response(JSON.stringify({ data: { text: 'hi' } }), {
          status: 201,
          headers: { 'content-type': 'application/json' },
        }),
      );
    await expect(
      createXPost({ baseUrl: 'https://api.x.com', accessToken: 'a', fetchImpl: answer }, { text: 'hi' }),
    ).rejects.toMatchObject({ code: 'invalid_answer', outcomeUnknown: true });
  });
});
