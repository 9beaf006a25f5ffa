import { databaseOf, type Database, type DatabaseSource } from '@postbus/kit';

/** The heartbeat row of each publisher process (`workers`), read by a claim to tell a live owner from a dead one. */
export class WorkerRepository {
  private readonly db: Database;

  constructor(source: DatabaseSource) {
    this.db = databaseOf(source);
  }

  /** Records that the worker is alive now (its row is made on the first beat). */
  async beat(workerId: string): Promise<void> {
    await this.db.query(
      `INSERT INTO workers (worker_id) VALUES ($1) ON CONFLICT (worker_id) DO UPDATE SET heartbeat_at = now()`,
      [workerId],
    );
  }

  async remove(workerId: string): Promise<void> {
    await this.db.query('DELETE FROM workers WHERE worker_id = $1', [workerId]);
  }
}
