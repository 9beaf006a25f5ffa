import { CreateWebhooks1732200000601 } from './1732200000601-create-webhooks';

export const migrations = [CreateWebhooks1732200000601];
