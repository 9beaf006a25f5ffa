import { CreateOutbox1732200000000 } from '@postbus/bus';
import { CreateAttempts1732200000301 } from './1732200000301-create-attempts';
import { PublishingPipeline1732200000302 } from './1732200000302-publishing-pipeline';
import { RateSlotFunction1732200000303 } from './1732200000303-rate-slot-function';
import { CreateEngagement1732200000350 } from './1732200000350-create-engagement';
import { PlatformThrottles1732200000360 } from './1732200000360-platform-throttles';

export const migrations = [
  CreateOutbox1732200000000,
  CreateAttempts1732200000301,
  PublishingPipeline1732200000302,
  RateSlotFunction1732200000303,
  CreateEngagement1732200000350,
  PlatformThrottles1732200000360,
];
