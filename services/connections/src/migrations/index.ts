import { CreateOutbox1732200000000 } from '@postbus/bus';
import { CreateProfiles1732200000101 } from './1732200000101-create-profiles';
import { ConnectionRequests1732200000102 } from './1732200000102-connection-requests';

export const migrations = [CreateOutbox1732200000000, CreateProfiles1732200000101, ConnectionRequests1732200000102];
