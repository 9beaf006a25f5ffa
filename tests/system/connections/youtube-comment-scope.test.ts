import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, connectProfile } from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('conn_yt_comments');
  system = await startSystem(env);
  account = await system.seedAccount({ platforms: [] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const FORCE_SSL = 'https://www.googleapis.com/auth/youtube.force-ssl';
const health = async (id: string) =>
  (await api(system, `/api/v1/connections/${id}/health`, { key: account.apiKey })).body;

describe('the scope YouTube first comments need', () => {
  test('when a YouTube channel is connected as asked, then youtube.force-ssl is among the granted scopes and health reports nothing missing for first comments', async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'youtube');

    const h = await health(profileId);
    expect(h.scopes.granted).toContain(FORCE_SSL);
    expect(h.scopes).toMatchObject({ missing: [], firstCommentMissing: [] });
  });

  test('when the person grants uploading but not youtube.force-ssl, then the channel connects and health lists force-ssl as missing for first comments', async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'youtube', {
      scope: 'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly',
    });

    const h = await health(profileId);
    expect(h.scopes).toMatchObject({ missing: [], firstCommentMissing: [FORCE_SSL] });
    const validated = await api(system, '/api/v1/posts/validate', {
      method: 'POST',
      key: account.apiKey,
      body: {
        platforms: ['youtube'],
        profileIds: [profileId],
        title: 't',
        mediaUrls: ['https://cdn.example.com/v.mp4'],
        firstComment: 'hello',
      },
    });
    expect(validated.body.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: 'invalid_profile_ids',
          field: 'firstComment',
          message: expect.stringContaining(FORCE_SSL),
        }),
      ]),
    );
  });
});
