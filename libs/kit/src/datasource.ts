import 'reflect-metadata';
import { Client } from 'pg';
import { DataSource, type EntitySchema, type MigrationInterface, type MixedList } from 'typeorm';

/** A migration, as TypeORM takes it: a class it instantiates without arguments. */
export type MigrationClass = new () => MigrationInterface;
/** A decorated entity class. */
export type EntityClass = new (...args: never[]) => object;

export interface DataSourceOptions {
  url: string;
  /** The service's own PostgreSQL schema; its tables and migration log live there. */
  schema: string;
  entities?: MixedList<EntitySchema | EntityClass>;
  migrations: MixedList<MigrationClass>;
  poolSize?: number;
  /** Act as this role (an administrator's URL running a service's migrations): what it creates, the role owns. */
  role?: string;
}

/**
 * pg's Pool listens for errors only on its idle clients. A client checked out (inside a
 * transaction, or holding an advisory lock while other work runs) whose server goes away
 * (PostgreSQL restarting: `57P01`) would emit an 'error' nobody hears, and Node ends the process.
 * Heard here, the loss still fails the client's next query, and the pool drops the dead client
 * when it is released.
 */
class PooledClient extends Client {
  constructor(config?: ConstructorParameters<typeof Client>[0]) {
    super(config);
    this.on('error', () => undefined);
  }
}

/**
 * Creates the schema if needed, opens a DataSource scoped to it and runs its migrations.
 * Replicas starting together take turns through an advisory lock held by the admin session:
 * the first migrates, the others then find nothing pending.
 */
export async function openDataSource(opts: DataSourceOptions): Promise<DataSource> {
  const admin = new Client({ connectionString: opts.url });
  await admin.connect();
  try {
    // A service's own role owns its schema but may not create schemas: look before creating.
    const exists = await admin.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [opts.schema]);
    if (!exists.rowCount) {
      try {
        await admin.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"`);
      } catch (err) {
        // Two services booting at once may race on CREATE SCHEMA; the loser sees a unique violation.
        if ((err as { code?: string }).code !== '23505') throw err;
      }
    }
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [`postbus.migrations.${opts.schema}`]);
    const ds = new DataSource({
      type: 'postgres',
      url: opts.url,
      schema: opts.schema,
      entities: opts.entities ?? [],
      migrations: opts.migrations,
      migrationsTableName: 'migrations',
      migrationsTransactionMode: 'each',
      synchronize: false,
      logging: false,
      extra: {
        Client: PooledClient,
        max: opts.poolSize ?? 10,
        options: `-c search_path="${opts.schema}"${opts.role ? ` -c role=${opts.role}` : ''}`,
      },
    });
    await ds.initialize();
    try {
      await ds.runMigrations();
    } catch (err) {
      await ds.destroy().catch(() => undefined);
      throw err;
    }
    return ds;
  } finally {
    await admin.end(); // ending the session releases the lock
  }
}
