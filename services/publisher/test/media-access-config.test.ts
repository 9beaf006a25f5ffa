import { readConfig } from '../src/config';

describe('which media links the publisher may read', () => {
  test('when nothing is configured, then loopback links are not read and our own file links are those of the default base URL', () => {
    const config = readConfig({});
    expect(config.PUBLISHER_ALLOW_LOOPBACK_MEDIA).toBe(false);
    expect(config.PUBLIC_BASE_URL).toBe('http://localhost:3000');
    expect(config.MEDIA_HTTP_URL).toBe('');
  });

  test('when production turns loopback links on, then the publisher refuses to start, naming the variable', () => {
    expect(() => readConfig({ POSTBUS_ENV: 'production', PUBLISHER_ALLOW_LOOPBACK_MEDIA: 'true' })).toThrow(
      /PUBLISHER_ALLOW_LOOPBACK_MEDIA must be false in production/,
    );
    expect(
      readConfig({ POSTBUS_ENV: 'development', PUBLISHER_ALLOW_LOOPBACK_MEDIA: 'true' }).PUBLISHER_ALLOW_LOOPBACK_MEDIA,
    ).toBe(true);
  });

  test("when media's own URL is not a URL, then the publisher refuses to start, naming the variable", () => {
    expect(() => readConfig({ MEDIA_HTTP_URL: 'media host 3002' })).toThrow(/MEDIA_HTTP_URL/);
    expect(readConfig({ MEDIA_HTTP_URL: 'http://media:3002/' }).MEDIA_HTTP_URL).toBe('http://media:3002');
  });
});
