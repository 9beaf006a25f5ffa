import type { Principal } from '@postbus/contracts';
import type { Database } from '@postbus/kit';
import type { KnownProfile } from './template.rules';
import type { TemplateRepository } from './template.repository';

export interface TemplatePorts {
  db: Database;
  templates: TemplateRepository;
  /** Every profile of the principal's account, disconnected ones included (connections, over RPC). */
  listProfiles(principal: Principal): Promise<KnownProfile[]>;
  clock: () => Date;
}
