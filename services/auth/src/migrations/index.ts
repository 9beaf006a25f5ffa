import { CreateOutbox1732200000000 } from '@postbus/bus';
import { CreateAuth1732200000201 } from './1732200000201-create-auth';
import { CreateSessions1732200000202 } from './1732200000202-create-sessions';
import { CreateOauth1732200000203 } from './1732200000203-create-oauth';
import { CreateSignInFailures1732200000204 } from './1732200000204-create-sign-in-failures';
import { LegacyWebhookScopes1732200000205 } from './1732200000205-legacy-webhook-scopes';
import { OauthGrantUse1732200000208 } from './1732200000208-oauth-grant-use';

export const migrations = [
  CreateOutbox1732200000000,
  CreateAuth1732200000201,
  CreateSessions1732200000202,
  CreateOauth1732200000203,
  CreateSignInFailures1732200000204,
  LegacyWebhookScopes1732200000205,
  OauthGrantUse1732200000208,
];
