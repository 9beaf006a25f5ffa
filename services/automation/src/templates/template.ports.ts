import type { Principal } from '@postbus/contracts';
import type { DataSource } from 'typeorm';
import type { KnownProfile } from './template.rules';
import type { TemplateRepository } from './template.repository';

export interface TemplatePorts {
  ds: DataSource;
  templates: TemplateRepository;
  /** Every profile of the principal's account, disconnected ones included (connections, over RPC). */
  listProfiles(principal: Principal): Promise<KnownProfile[]>;
  clock: () => Date;
}
