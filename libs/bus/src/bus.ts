import type { Logger } from '@postbus/kit';
import type { BusKeys } from './call-signature';
import { BusConnection } from './connection';
import { EventConsumer, EventPublisher, type ConsumerOptions } from './events';
import type { BusObserver } from './observer';
import { RpcClient, RpcServer } from './rpc';

export interface Bus {
  connection: BusConnection;
  rpc: RpcClient;
  events: EventPublisher;
  serve(service: string, opts?: { prefetch?: number }): RpcServer;
  consume(opts: ConsumerOptions): EventConsumer;
  close(): Promise<void>;
}

/** Opens the connection and the two things every service uses: an RPC client and an event publisher. */
export async function openBus(opts: {
  url: string;
  namespace: string;
  logger: Logger;
  rpcTimeoutMs: number;
  ephemeral?: boolean;
  observer?: BusObserver;
  keys?: BusKeys;
}): Promise<Bus> {
  const connection = await BusConnection.open({
    url: opts.url,
    namespace: opts.namespace,
    logger: opts.logger,
    ephemeral: opts.ephemeral,
    observer: opts.observer,
    keys: opts.keys,
  });
  const rpc = await RpcClient.create(connection, opts.rpcTimeoutMs);
  const events = await EventPublisher.create(connection);
  return {
    connection,
    rpc,
    events,
    serve: (service, o) => new RpcServer(connection, service, o),
    consume: (o) => new EventConsumer(connection, o),
    async close() {
      rpc.close();
      await connection.close();
    },
  };
}
