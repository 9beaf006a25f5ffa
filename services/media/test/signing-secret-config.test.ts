import { ConfigError } from '@postbus/kit';
import { MIN_SIGNING_SECRET_BYTES, readConfig } from '../src/config';
import { start } from '../src/main';

const production = { POSTBUS_ENV: 'production', DATABASE_URL: 'postgres://postbus@127.0.0.1:1/unused' };

describe('the media signing secret in production', () => {
  test('when it is shorter than 32 bytes, then the configuration is refused saying how long it must be, and the service does not start', async () => {
    const short = 'x'.repeat(MIN_SIGNING_SECRET_BYTES - 1);

    expect(() => readConfig({ ...production, MEDIA_SIGNING_SECRET: short })).toThrow(
      'MEDIA_SIGNING_SECRET must be at least 32 bytes in production (it is 31)',
    );
    await expect(start({ ...production, MEDIA_SIGNING_SECRET: short })).rejects.toBeInstanceOf(ConfigError);
  });

  test('when it is 32 bytes or more, then it is accepted; outside production a short one still is', () => {
    expect(readConfig({ ...production, MEDIA_SIGNING_SECRET: 'é'.repeat(16) }).MEDIA_SIGNING_SECRET).toBe(
      'é'.repeat(16),
    );
    expect(readConfig({ MEDIA_SIGNING_SECRET: 'short' }).MEDIA_SIGNING_SECRET).toBe('short');
  });

  test('when it is the development default, then it is refused as not set', () => {
    expect(() => readConfig(production)).toThrow('MEDIA_SIGNING_SECRET must be set in production');
  });
});
