import type { ConsumeMessage } from 'amqplib';
import {
  compile,
  describeErrors,
  Events,
  type ContractEvent,
  type EventDef,
  type EventEnvelope,
  type EventName,
  type EventOf,
} from '@postbus/contracts';
import { PermanentError } from './errors';

export interface EventMeta {
  attempt: number;
  redelivered: boolean;
  message: ConsumeMessage;
}

/** A handler of one event, its data typed by the event's contract and validated before it runs. */
export type EventHandler<D extends EventDef> = (event: EventOf<D>, meta: EventMeta) => Promise<unknown> | void;

/** The contract event of a name, for handlers registered by name. */
export type ContractEventNamed<N extends EventName> = Extract<ContractEvent, { name: N }>;

const contractEvents = new Map<string, EventDef>(Object.values(Events).map((def) => [def.name, def]));

interface Registered {
  check: ReturnType<typeof compile>;
  handler: EventHandler<EventDef>;
}

/**
 * The typed handlers of one consumer, by event name. An event whose data breaks its contract is a
 * PermanentError: it goes to dead letters (dropped, on a per-process queue) without reaching the handler.
 */
export class EventHandlers {
  private readonly byName = new Map<string, Registered>();

  add(defOrName: EventDef | string, handler: EventHandler<EventDef>): void {
    const def = typeof defOrName === 'string' ? contractEventNamed(defOrName) : defOrName;
    if (this.byName.has(def.name)) throw new Error(`${def.name} has a handler already`);
    this.byName.set(def.name, { check: compile(def.schema), handler });
  }

  get names(): string[] {
    return [...this.byName.keys()];
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  async dispatch(event: EventEnvelope, meta: EventMeta): Promise<void> {
    const entry = this.byName.get(event.name);
    if (!entry) throw new Error(`${event.name} has no handler`);
    if (!entry.check(event.data))
      throw new PermanentError(`${event.name} does not match its contract: ${describeErrors(entry.check.errors)}`);
    await entry.handler(event, meta);
  }
}

function contractEventNamed(name: string): EventDef {
  const def = contractEvents.get(name);
  if (!def) throw new Error(`no event contract is named ${name}`);
  return def;
}
