import { CreateOutbox1732200000000 } from '@postbus/bus';
import { CreateMedia1732200000401 } from './1732200000401-create-media';
import { MediaProbe1732200000402 } from './1732200000402-media-probe';
import { Renditions1732200000403 } from './1732200000403-renditions';

export const migrations = [
  CreateOutbox1732200000000,
  CreateMedia1732200000401,
  MediaProbe1732200000402,
  Renditions1732200000403,
];
