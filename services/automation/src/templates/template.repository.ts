import type { DataSource } from 'typeorm';
import type { SqlRunner } from '@postbus/kit';
import { canonicalTemplate, type StoredTemplate } from './stored-template';

export interface TemplateRecord {
  template: StoredTemplate;
  revision: number;
  updatedAt: Date;
}

interface TemplateRow {
  document: StoredTemplate;
  revision: number;
  updated_at: Date;
}

const toRecord = (r: TemplateRow | undefined): TemplateRecord | undefined =>
  r ? { template: canonicalTemplate(r.document), revision: r.revision, updatedAt: new Date(r.updated_at) } : undefined;

/** One template per account, replaced whole by each import that changes it. */
export class TemplateRepository {
  constructor(private readonly ds: DataSource) {}

  async find(accountId: string, m: SqlRunner = this.ds): Promise<TemplateRecord | undefined> {
    const rows: TemplateRow[] = await m.query(
      'SELECT document, revision, updated_at FROM templates WHERE account_id = $1',
      [accountId],
    );
    return toRecord(rows[0]);
  }

  /** Serializes imports of one account: the row, or the account's advisory lock while it has none. */
  async lock(m: SqlRunner, accountId: string): Promise<TemplateRecord | undefined> {
    await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`automation.template.${accountId}`]);
    const rows: TemplateRow[] = await m.query(
      'SELECT document, revision, updated_at FROM templates WHERE account_id = $1 FOR UPDATE',
      [accountId],
    );
    return toRecord(rows[0]);
  }

  async save(m: SqlRunner, accountId: string, template: StoredTemplate, revision: number, at: Date): Promise<void> {
    await m.query(
      `INSERT INTO templates (account_id, document, revision, updated_at) VALUES ($1, $2::jsonb, $3, $4)
       ON CONFLICT (account_id) DO UPDATE SET document = EXCLUDED.document, revision = EXCLUDED.revision, updated_at = EXCLUDED.updated_at`,
      [accountId, JSON.stringify(template), revision, at],
    );
  }
}
