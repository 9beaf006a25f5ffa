import { createHash } from 'node:crypto';
import { MEDIA_MAX_BYTES, Rpc, type AppError } from '@postbus/contracts';
import { A_PDF, aJpeg, TINY_PNG } from './support/media-files';
import { pathOf, startMediaHarness, type MediaHarness } from './support/media-harness';

let h: MediaHarness;

beforeAll(async () => {
  h = await startMediaHarness('media_upload_base64');
});
afterAll(() => h?.stop());

const sha = (b: Buffer | ArrayBuffer) =>
  createHash('sha256')
    .update(Buffer.from(b as ArrayBuffer))
    .digest('hex');

describe('media.uploadBase64 (the agent twin)', () => {
  test('when base64 content is sent, then it is stored like an upload and answers mediaId and url', async () => {
    const account = await h.account();
    const bytes = aJpeg(64 * 1024);
    const r = await h.bus.rpc.call(
      Rpc.mediaUploadBase64,
      { content: bytes.toString('base64'), filename: 'a.jpg' },
      principalOf(account),
    );
    expect(r).toEqual({ success: true, mediaId: expect.stringMatching(/^med_/), url: expect.any(String) });
    const served = await fetch(`${h.mediaUrl}${pathOf(r.url)}`);
    expect(sha(await served.arrayBuffer())).toBe(sha(bytes));
  });

  test('when the base64 content is not media or not base64, then unsupported_media_type or validation_error', async () => {
    const account = await h.account();
    await expect(
      h.bus.rpc.call(Rpc.mediaUploadBase64, { content: A_PDF.toString('base64') }, principalOf(account)),
    ).rejects.toMatchObject({ code: 'unsupported_media_type' });
    await expect(
      h.bus.rpc.call(Rpc.mediaUploadBase64, { content: 'this is not base64!' }, principalOf(account)),
    ).rejects.toMatchObject({ code: 'validation_error' });
  });

  test('when the decoded content is over 50 MB, then file_too_large before anything is stored', async () => {
    const account = await h.account({ plan: 'pro' });
    const content = 'A'.repeat(Math.ceil((MEDIA_MAX_BYTES + 3) / 3) * 4);
    const err = await h.bus.rpc
      .call(Rpc.mediaUploadBase64, { content }, principalOf(account), { timeoutMs: 30_000 })
      .catch((e: AppError) => e);
    expect(err).toMatchObject({ code: 'file_too_large' });
  });

  test('when the plan has expired, then upload_plan_required', async () => {
    const expired = await h.account({ plan: 'expired', tester: true });
    await expect(
      h.bus.rpc.call(Rpc.mediaUploadBase64, { content: TINY_PNG.toString('base64') }, principalOf(expired)),
    ).rejects.toMatchObject({ code: 'upload_plan_required' });
  });
});

function principalOf(account: { accountId: string; userId: string; keyId: string }) {
  return {
    accountId: account.accountId,
    userId: account.userId,
    credential: { type: 'api_key' as const, id: account.keyId },
    scopes: ['media:write'],
    profileIds: 'all' as const,
  };
}
