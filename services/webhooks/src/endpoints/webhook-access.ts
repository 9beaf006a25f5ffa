import { AppError, type Principal } from '@postbus/contracts';

/**
 * Endpoints are the account's: they receive every profile's events, and their deliveries show
 * them. A key limited to some profiles may therefore neither see nor manage them.
 */
export function assertMayUseWebhooks(principal: Principal): void {
  if (principal.profileIds !== 'all') {
    throw new AppError(
      'profile_scope_denied',
      'Webhooks receive the events of every profile of the account, so a key limited to some profiles may not read or manage them; use a key for all profiles.',
    );
  }
}
