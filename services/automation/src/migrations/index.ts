import { CreateOutbox1732200000000 } from '@postbus/bus';
import { CreateAutomation1732200000701 } from './1732200000701-create-automation';

export const migrations = [CreateOutbox1732200000000, CreateAutomation1732200000701];
