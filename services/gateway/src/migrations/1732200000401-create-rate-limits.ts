/** The gateway's only table: one request counter per API key, shared by every replica. */
export class CreateRateLimits1732200000401 {
  name = 'CreateRateLimits1732200000401';
  async up(q: { query(sql: string): Promise<unknown> }): Promise<void> {
    await q.query(`CREATE TABLE rate_limits (
      key text PRIMARY KEY,
      window_start timestamptz NOT NULL,
      count integer NOT NULL
    )`);
  }
  async down(q: { query(sql: string): Promise<unknown> }): Promise<void> {
    await q.query('DROP TABLE rate_limits');
  }
}
