import { CreateRateLimits1732200000401 } from './1732200000401-create-rate-limits';

export const migrations = [CreateRateLimits1732200000401];
