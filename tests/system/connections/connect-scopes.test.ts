import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, newConnectUrl, walkHandoff } from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('conn_scopes');
  system = await startSystem(env);
  account = await system.seedAccount({ platforms: [] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

/** Walks the handoff with the person approving only `scope`; answers the request as the API shows it, and the page. */
async function connectGranting(platform: string, scope: string) {
  const link = await newConnectUrl(system, account.apiKey, platform);
  const page = await walkHandoff(link.connectUrl, { scope });
  const request = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });
  return { request: request.body, page };
}

const profileCount = async () =>
  (await api(system, '/api/v1/connections', { key: account.apiKey })).body.accounts.length;

describe('the scopes a connection must grant', () => {
  test('when a TikTok user approves everything but video.publish, then the request fails naming it and saying to approve it, and no profile is stored', async () => {
    const before = await profileCount();

    const { request, page } = await connectGranting('tiktok', 'user.info.basic,user.info.profile,video.list');

    expect(request).toMatchObject({ status: 'failed', profileId: null });
    expect(request.failureReason).toBe(
      'The TikTok authorization did not grant video.publish, which publishing needs. Connect again and approve that permission on the TikTok consent screen.',
    );
    expect(page.html).toContain('video.publish');
    expect(await profileCount()).toBe(before);
  });

  test('when a Google user approves reading the channel but not uploading, then the request fails naming youtube.upload', async () => {
    const { request } = await connectGranting('youtube', 'https://www.googleapis.com/auth/youtube.readonly');

    expect(request.status).toBe('failed');
    expect(request.failureReason).toContain('https://www.googleapis.com/auth/youtube.upload');
  });

  test('when the grant covers publishing (a broader YouTube scope counts), then the connection completes', async () => {
    const tiktok = await connectGranting('tiktok', 'user.info.basic,video.publish');
    const youtube = await connectGranting('youtube', 'https://www.googleapis.com/auth/youtube');

    expect(tiktok.request).toMatchObject({ status: 'completed', profileId: expect.any(String) });
    expect(youtube.request).toMatchObject({ status: 'completed', profileId: expect.any(String) });
  });
});
