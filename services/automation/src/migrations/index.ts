import { CreateOutbox1732200000000 } from '@postbus/bus';
import { CreateAutomation1732200000701 } from './1732200000701-create-automation';
import { CreatePollCursors1732200000702 } from './1732200000702-create-poll-cursors';

export const migrations = [CreateOutbox1732200000000, CreateAutomation1732200000701, CreatePollCursors1732200000702];
