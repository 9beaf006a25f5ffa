import { SERVER_MODES, type ServersMode } from './server-way';

function serversMode(value: string | undefined): ServersMode {
  const mode = (value || 'auto') as ServersMode;
  if (!SERVER_MODES.includes(mode))
    throw new Error(`POSTBUS_SERVERS must be one of ${SERVER_MODES.join(', ')} (got "${value}").`);
  return mode;
}

/** What `npm start` and `npm test` read to find, or bring up, PostgreSQL and RabbitMQ (the only reader of process.env here). */
export const launchConfig = {
  /** Set explicitly, these servers are used or the command stops; unset, the defaults on localhost are tried first. */
  databaseUrl: process.env.DATABASE_URL,
  amqpUrl: process.env.AMQP_URL,
  /** `auto`: the configured servers, else a private server kept by an earlier run, else Docker, else a private server; or one of these ways only. */
  serversMode: serversMode(process.env.POSTBUS_SERVERS),
};
