import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Finds the answers kept for RPC call ids by age, for the sweep that drops those older than a day. */
export class CallAnswersSweep1732200000023 implements MigrationInterface {
  name = 'CallAnswersSweep1732200000023';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX create_requests_calls ON create_requests (created_at) WHERE kind = 'call'`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX create_requests_calls');
  }
}
