import { redactUrl } from '../src';

describe('redactUrl', () => {
  it('when a URL carries a password, then it is masked and the rest kept', () => {
    expect(redactUrl('amqp://postbus:s3cret@broker:5672/vhost')).toBe('amqp://postbus:***@broker:5672/vhost');
  });

  it('when a URL has no password or is not a URL, then it is returned as it is', () => {
    expect(redactUrl('postgres://root@127.0.0.1:5432/postbus')).toBe('postgres://root@127.0.0.1:5432/postbus');
    expect(redactUrl('not a url')).toBe('not a url');
  });
});
