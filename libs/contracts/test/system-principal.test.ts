import { PrincipalSchema, compile, systemPrincipal } from '../src';

describe('systemPrincipal', () => {
  it('when a service calls for an account, then the principal names the service, holds only the scopes given and matches the contract', () => {
    const principal = systemPrincipal({ service: 'webhooks', accountId: 'acc_1', scopes: ['post:read'] });
    expect(principal).toEqual({
      accountId: 'acc_1',
      userId: 'system',
      credential: { type: 'system', id: 'webhooks' },
      scopes: ['post:read'],
      profileIds: 'all',
    });
    expect(compile(PrincipalSchema)(principal)).toBe(true);
  });

  it('when it acts for a signed-in person, then that person is the user', () => {
    expect(
      systemPrincipal({ service: 'auth.settings', accountId: 'acc_1', userId: 'usr_1', scopes: ['account:read'] })
        .userId,
    ).toBe('usr_1');
  });
});
