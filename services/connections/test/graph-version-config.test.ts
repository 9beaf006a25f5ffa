import { ConfigError } from '@postbus/kit';
import { readConfig } from '../src/config';

describe('connections: the Graph version in one setting', () => {
  test('when nothing is set, then Facebook Login and its Graph calls use the current version under the sandbox, Threads v1.0', () => {
    expect(readConfig({})).toMatchObject({
      FACEBOOK_AUTHORIZE_URL: 'http://127.0.0.1:4010/facebook/v26.0/dialog/oauth',
      FACEBOOK_GRAPH_URL: 'http://127.0.0.1:4010/facebook/v26.0',
      THREADS_API_URL: 'http://127.0.0.1:4010/threads/v1.0',
    });
  });

  test('when META_GRAPH_VERSION and the real hosts are set, then the login dialog and the Graph calls both carry that version', () => {
    const config = readConfig({
      META_GRAPH_VERSION: 'v25.0',
      FACEBOOK_AUTHORIZE_URL: 'https://www.facebook.com',
      FACEBOOK_GRAPH_URL: 'https://graph.facebook.com',
      THREADS_API_URL: 'https://graph.threads.net',
    });
    expect(config).toMatchObject({
      FACEBOOK_AUTHORIZE_URL: 'https://www.facebook.com/v25.0/dialog/oauth',
      FACEBOOK_GRAPH_URL: 'https://graph.facebook.com/v25.0',
      THREADS_API_URL: 'https://graph.threads.net/v1.0',
    });
  });

  test('when a host still names a version, then the configuration is refused naming it', () => {
    expect(() => readConfig({ FACEBOOK_GRAPH_URL: 'https://graph.facebook.com/v21.0' })).toThrow(ConfigError);
    expect(() => readConfig({ FACEBOOK_GRAPH_URL: 'https://graph.facebook.com/v21.0' })).toThrow(
      /FACEBOOK_GRAPH_URL=.*must not name a version/,
    );
  });
});
