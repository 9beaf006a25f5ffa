import { CreateOutbox1732200000000 } from '@postbus/bus';
import { CreateProfiles1732200000101 } from './1732200000101-create-profiles';
import { ConnectionRequests1732200000102 } from './1732200000102-connection-requests';
import { ProfileHealth1732200000103 } from './1732200000103-profile-health';
import { RefreshUnanswered1732200000104 } from './1732200000104-refresh-unanswered';
import { MastodonApps1732200000105 } from './1732200000105-mastodon-apps';
import { ProfileRevision1732200000106 } from './1732200000106-profile-revision';
import { BlueskyOAuth1732200000107 } from './1732200000107-bluesky-oauth';
import { MastodonAppScopes1732200000108 } from './1732200000108-mastodon-app-scopes';

export const migrations = [
  CreateOutbox1732200000000,
  CreateProfiles1732200000101,
  ConnectionRequests1732200000102,
  ProfileHealth1732200000103,
  RefreshUnanswered1732200000104,
  MastodonApps1732200000105,
  ProfileRevision1732200000106,
  BlueskyOAuth1732200000107,
  MastodonAppScopes1732200000108,
];
