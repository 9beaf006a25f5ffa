import { CreateOutbox1732200000000 } from '@postbus/bus';
import { CreateMedia1732200000401 } from './1732200000401-create-media';

export const migrations = [CreateOutbox1732200000000, CreateMedia1732200000401];
