import { ConfigError } from '@postbus/kit';
import { readConfig } from '../src/config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    readConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('the configuration was accepted');
}

const REAL_TIKTOK = { TIKTOK_API_URL: 'https://open.tiktokapis.com' };

describe('publisher platform settings', () => {
  test('when nothing is set, then Facebook and Instagram are called at the current Graph version under the sandbox, Page videos included', () => {
    const config = readConfig({});
    expect(config).toMatchObject({
      META_GRAPH_VERSION: 'v26.0',
      INSTAGRAM_API_URL: 'http://127.0.0.1:4010/instagram/v26.0',
      FACEBOOK_API_URL: 'http://127.0.0.1:4010/facebook/v26.0',
      THREADS_API_URL: 'http://127.0.0.1:4010/threads/v1.0',
    });
    expect(config).not.toHaveProperty('FACEBOOK_VIDEO_API_URL');
  });

  test('when META_GRAPH_VERSION names another version, then both Meta hosts carry it; a host naming its own version is refused', () => {
    const config = readConfig({
      META_GRAPH_VERSION: 'v25.0',
      INSTAGRAM_API_URL: 'https://graph.instagram.com',
      FACEBOOK_API_URL: 'https://graph.facebook.com',
    });
    expect(config).toMatchObject({
      INSTAGRAM_API_URL: 'https://graph.instagram.com/v25.0',
      FACEBOOK_API_URL: 'https://graph.facebook.com/v25.0',
    });
    expect(problemsOf({ INSTAGRAM_API_URL: 'https://graph.instagram.com/v21.0' })).toEqual([
      expect.stringMatching(/^INSTAGRAM_API_URL=.*must not name a version/),
    ]);
    expect(problemsOf({ META_GRAPH_VERSION: '26.0' })).toEqual([
      expect.stringMatching(/^META_GRAPH_VERSION="26.0": expected a Graph API version/),
    ]);
  });

  test.each([
    ['65536 (64 KiB)', '65536'],
    ['5,000,000 (under 5 MiB)', '5000000'],
    ['64,000,001', '64000001'],
    ['128 MiB', String(128 * 1024 * 1024)],
  ])(
    'when TIKTOK_CHUNK_BYTES is %s against the real TikTok, then the publisher refuses to start naming the range',
    (_what, bytes) => {
      expect(problemsOf({ ...REAL_TIKTOK, TIKTOK_CHUNK_BYTES: bytes })).toEqual([
        `TIKTOK_CHUNK_BYTES=${bytes}: TikTok takes chunks of 5242880 to 64000000 bytes (5 MiB to 64 MB)`,
      ]);
    },
  );

  test('when TIKTOK_CHUNK_BYTES is within 5 MiB–64 MB, or the sandbox (with its own chunk rules) is used, then it is accepted', () => {
    expect(readConfig({ ...REAL_TIKTOK }).TIKTOK_CHUNK_BYTES).toBe(10 * 1024 * 1024);
    expect(readConfig({ ...REAL_TIKTOK, TIKTOK_CHUNK_BYTES: '5242880' }).TIKTOK_CHUNK_BYTES).toBe(5_242_880);
    expect(readConfig({ ...REAL_TIKTOK, TIKTOK_CHUNK_BYTES: '64000000' }).TIKTOK_CHUNK_BYTES).toBe(64_000_000);
    expect(readConfig({ TIKTOK_CHUNK_BYTES: '65536' }).TIKTOK_CHUNK_BYTES).toBe(65_536);
  });
});
