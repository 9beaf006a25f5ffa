import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import {
  api,
  connectProfile,
  credentialsOf,
  platformUser,
  refreshCredentials,
  sandboxControl,
} from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('conn_linkedin');
  system = await startSystem(env, { TOKEN_REFRESH_DEDUP_MS: '0' });
  account = await system.seedAccount({ platforms: ['threads'] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const linkedInCalls = async (pathEnd: string) =>
  (
    (await sandboxControl(system, 'GET', '/requests?platform=linkedin')).body as {
      path: string;
      body: any;
      headers: any;
    }[]
  ).filter((r) => r.path.endsWith(pathEnd));

describe('connecting LinkedIn', () => {
  test('when a member connects through the handoff, then the profile is the member (urn:li:person), holds the granted scopes and a 60-day token, and a refresh keeps the refresh token', async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'linkedin', { handle: 'ada_member' });

    const listed = await api(system, '/api/v1/connections', { key: account.apiKey });
    const profile = listed.body.accounts.find((a: { id: string }) => a.id === profileId);
    expect(profile).toMatchObject({ platform: 'linkedin', handle: 'ada_member', status: 'active' });
    expect(Math.round((Date.parse(profile.tokenExpiresAt) - Date.now()) / 86_400_000)).toBe(60);
    const health = await api(system, `/api/v1/connections/${profileId}/health`, { key: account.apiKey });
    expect(health.body).toMatchObject({ platform: 'linkedin', scopes: { missing: [] }, problems: [] });
    expect(health.body.scopes.granted).toEqual(
      expect.arrayContaining(['openid', 'profile', 'w_member_social', 'w_organization_social', 'r_organization_admin']),
    );

    const before = await credentialsOf(system, account, profileId);
    expect(before.platformUserId).toMatch(/^urn:li:person:\d+$/);
    const after = await refreshCredentials(system, account, profileId);
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.status).toBe('active');
    const [exchange, refresh] = (await linkedInCalls('/oauth/v2/accessToken')).map((r) => r.body);
    expect(exchange).toMatchObject({ grant_type: 'authorization_code', client_id: 'postbus-sandbox' });
    expect(refresh).toMatchObject({ grant_type: 'refresh_token' });
    // The member was read with the new token from /v2/userinfo; the organizations from /rest with LinkedIn-Version.
    expect((await linkedInCalls('/v2/userinfo')).length).toBeGreaterThan(0);
    const [acl] = await linkedInCalls('/rest/organizationAcls');
    expect(acl.headers).toMatchObject({
      'linkedin-version': expect.stringMatching(/^\d{6}$/),
      'x-restli-protocol-version': '2.0.0',
    });
  });

  test('when the member administers an organization, then the person chooses it and the profile posts as urn:li:organization with the member token', async () => {
    const member = await platformUser(system, 'linkedin', 'org_owner');
    const org = await sandboxControl(system, 'POST', '/linkedin/organizations', {
      name: 'Acme Corp',
      vanityName: 'acme',
      roles: { [member.userId]: 'ADMINISTRATOR' },
    });
    const urn = (org.body as { urn: string }).urn;

    const { profileId } = await connectProfile(system, account.apiKey, 'linkedin', {
      accounts: [member.userId],
      choose: urn,
    });

    const creds = await credentialsOf(system, account, profileId);
    expect(creds).toMatchObject({ platformUserId: urn, handle: 'acme', status: 'active' });
    const listed = await api(system, '/api/v1/connections', { key: account.apiKey });
    expect(listed.body.accounts.find((a: { id: string }) => a.id === profileId)).toMatchObject({
      platform: 'linkedin',
      handle: 'acme',
    });
    const health = await api(system, `/api/v1/connections/${profileId}/health`, { key: account.apiKey });
    expect(health.body.scopes).toMatchObject({ needed: ['w_member_social', 'w_organization_social'], missing: [] });
  });
});
