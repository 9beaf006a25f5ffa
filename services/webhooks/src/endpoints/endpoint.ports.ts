import type { Database } from '@postbus/kit';
import type { DeliveryRepository } from '../deliveries/delivery.repository';
import type { EndpointRepository } from './endpoint.repository';

export interface EndpointPorts {
  db: Database;
  endpoints: EndpointRepository;
  deliveries: DeliveryRepository;
  clock: () => Date;
  /** The SSRF guard: throws validation_error for a URL deliveries would refuse. */
  checkTarget(url: string): Promise<void>;
  /** A delivery became due now (manual retry): wake the delivery loop. */
  announce(): void;
}
