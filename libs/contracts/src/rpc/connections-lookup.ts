import { Type } from '@sinclair/typebox';
import { ProfileSchema } from './connections';
import { defineRpc } from './define';

/**
 * Lookups across accounts, for services that hear about a platform account before they know the
 * Postbus account it belongs to (a platform's webhook names only its own account id).
 */
export const ConnectionsLookupRpc = {
  /**
   * The profiles, in any account, connected to this platform account (the same one may be connected by
   * several accounts), oldest connection first; disconnected ones are left out, ones needing a reconnect are not.
   */
  connectionsFindByPlatformUser: defineRpc(
    'connections.profiles.findByPlatformUser',
    Type.Object({ platform: Type.String(), platformUserId: Type.String({ minLength: 1 }) }),
    Type.Object({ profiles: Type.Array(ProfileSchema) }),
    { anonymous: true },
  ),
};
