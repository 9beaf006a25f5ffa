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

describe('automation configuration', () => {
  test('when nothing is set, then the sandbox URLs and development secrets make a working development setup', () => {
    expect(readConfig({})).toMatchObject({
      AUTOMATION_HTTP_PORT: 3007,
      INSTAGRAM_API_URL: 'http://127.0.0.1:4010/instagram/v26.0',
      FACEBOOK_API_URL: 'http://127.0.0.1:4010/facebook/v26.0',
      THREADS_API_URL: 'http://127.0.0.1:4010/threads/v1.0',
      THREADS_APP_SECRET: '',
    });
  });

  test('when META_GRAPH_VERSION is set, then every Facebook and Instagram URL carries it; a host naming its own version is refused', () => {
    const config = readConfig({
      META_GRAPH_VERSION: 'v25.0',
      INSTAGRAM_API_URL: 'https://graph.instagram.com',
      FACEBOOK_API_URL: 'https://graph.facebook.com/',
    });
    expect(config).toMatchObject({
      INSTAGRAM_API_URL: 'https://graph.instagram.com/v25.0',
      FACEBOOK_API_URL: 'https://graph.facebook.com/v25.0',
    });
    expect(problemsOf({ FACEBOOK_API_URL: 'https://graph.facebook.com/v21.0', META_GRAPH_VERSION: '21' })).toEqual([
      expect.stringMatching(/^META_GRAPH_VERSION="21": expected a Graph API version such as v26.0/),
      expect.stringMatching(/^FACEBOOK_API_URL="https:\/\/graph.facebook.com\/v21.0": must not name a version/),
    ]);
  });

  test('when production runs with the development App Secret and verify token, then it refuses to start naming both', () => {
    expect(problemsOf({ POSTBUS_ENV: 'production' })).toEqual([
      'META_APP_SECRET must be set in production',
      'META_VERIFY_TOKEN must be set in production',
    ]);
    expect(
      readConfig({ POSTBUS_ENV: 'production', META_APP_SECRET: 'real-secret', META_VERIFY_TOKEN: 'real-token' })
        .META_APP_SECRET,
    ).toBe('real-secret');
  });

  test('when retry delays are not milliseconds, then the variable is named', () => {
    expect(problemsOf({ AUTOMATION_RETRY_DELAYS_MS: 'soon' })).toEqual([
      expect.stringMatching(/^AUTOMATION_RETRY_DELAYS_MS="soon": expected comma-separated positive milliseconds/),
    ]);
  });
});
