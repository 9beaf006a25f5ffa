import { MEDIA_UPLOAD_URL_TTL_SECONDS } from '@postbus/contracts';
import { UploadUrlSigner } from '../src/library/upload-url';

const grant = {
  mediaId: 'med_x',
  accountId: 'acc_x',
  userId: 'usr_x',
  credential: { type: 'api_key' as const, id: 'key_x' },
  filename: null,
};

describe('upload URL tokens', () => {
  test('when a token is verified within its time, then its grant comes back; past its expiry it is invalid_signature', () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const signer = new UploadUrlSigner('a-secret-of-some-length-for-tests', () => now);
    const { token, expires } = signer.sign(grant);
    expect(expires).toBe(now.getTime() / 1000 + MEDIA_UPLOAD_URL_TTL_SECONDS);
    expect(signer.verify(token)).toEqual({ ...grant, expires });
    now = new Date((expires + 1) * 1000);
    expect(() => signer.verify(token)).toThrow(
      expect.objectContaining({ code: 'invalid_signature', message: expect.stringContaining('expired') }),
    );
  });

  test('when a token is signed with another secret, changed, or malformed, then it is invalid_signature', () => {
    const signer = new UploadUrlSigner('a-secret-of-some-length-for-tests');
    const { token } = new UploadUrlSigner('another-secret-of-some-length').sign(grant);
    expect(() => signer.verify(token)).toThrow(expect.objectContaining({ code: 'invalid_signature' }));
    const [payload, sig] = signer.sign(grant).token.split('.');
    const changed = Buffer.from(JSON.stringify({ ...grant, accountId: 'acc_other', expires: 9_999_999_999 })).toString(
      'base64url',
    );
    for (const bad of [`${changed}.${sig}`, payload, `${payload}.${sig}.x`, '']) {
      expect(() => signer.verify(bad)).toThrow(expect.objectContaining({ code: 'invalid_signature' }));
    }
  });
});
