import { signaturesMadeBy, verifiedBy } from '@postbus/testing';
import { newWebhookSecret, secretKey } from '../src/endpoints/webhook-secret';
import { signWebhook } from '../src/sending/webhook-signature';

const body = JSON.stringify({
  id: 'evt_1',
  type: 'post.published',
  timestamp: '2025-01-01T00:00:00.000Z',
  data: { post: { id: 'pst_1', caption: 'héllo ✓' } },
});

describe('webhook secrets', () => {
  test('when a secret is issued, then it is whsec_ and base64 of at least 24 random bytes, different each time', () => {
    const a = newWebhookSecret();
    const b = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(secretKey(a).length).toBeGreaterThanOrEqual(24);
    expect(a).not.toBe(b);
  });
});

describe('Standard Webhooks signatures', () => {
  test('when a delivery is signed, then an independent verifier accepts it, and refuses a changed body, id or timestamp', () => {
    const secret = newWebhookSecret();
    const h = signWebhook([secret], 'msg_abc', 1_700_000_000, body);
    expect(h['webhook-id']).toBe('msg_abc');
    expect(h['webhook-timestamp']).toBe('1700000000');
    expect(h['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const headers = { id: h['webhook-id'], timestamp: h['webhook-timestamp'], signature: h['webhook-signature'] };
    expect(verifiedBy(secret, headers, body)).toBe(true);
    expect(verifiedBy(secret, headers, body.replace('pst_1', 'pst_2'))).toBe(false);
    expect(verifiedBy(secret, { ...headers, id: 'msg_other' }, body)).toBe(false);
    expect(verifiedBy(secret, { ...headers, timestamp: '1700000001' }, body)).toBe(false);
    expect(verifiedBy(newWebhookSecret(), headers, body)).toBe(false);
  });

  test('when the published example of the convention is signed, then the published signature comes out', () => {
    // The example of the Standard Webhooks specification (secret, id, timestamp, body → signature).
    const h = signWebhook(
      ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(h['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  test('when two secrets sign (a rotation), then the header lists both, space-separated, the newest first', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const h = signWebhook([current, previous], 'msg_rot', 1_700_000_000, body);
    const headers = { id: h['webhook-id'], timestamp: h['webhook-timestamp'], signature: h['webhook-signature'] };
    expect(h['webhook-signature'].split(' ')).toHaveLength(2);
    expect(signaturesMadeBy(current, headers, body)).toEqual([0]);
    expect(signaturesMadeBy(previous, headers, body)).toEqual([1]);
    expect(signaturesMadeBy(newWebhookSecret(), headers, body)).toEqual([]);
  });
});
