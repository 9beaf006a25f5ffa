import { randomUUID } from 'node:crypto';
import type { Channel, ConsumeMessage } from 'amqplib';
import {
  AppError,
  assertValid,
  compile,
  describeErrors,
  type Principal,
  type RpcDef,
  type RpcInput,
  type RpcOutput,
} from '@postbus/contracts';
import { currentRequestId, newRequestId, runWithContext } from '@postbus/kit';
import { checkCaller, signatureHeaders } from './call-signature';
import type { BusConnection } from './connection';
import { stringProperty } from './message-properties';
import { notify, secondsSince } from './observer';

const REPLY_QUEUE = 'amq.rabbitmq.reply-to';

/** A request's body; it is signed by the calling service (see call-signature). */
type RequestBody = { principal?: Principal | null; input?: unknown };

type Reply =
  | { ok: true; data: unknown }
  | { ok: false; error: { status: number; code: string; message: string; details?: unknown } };

export interface RpcContext {
  principal: Principal | null;
  requestId: string;
  /**
   * The one call this request belongs to (its correlation id): the same when the broker
   * redelivers the request after a replica died before acking, so a create can be made once.
   */
  callId?: string;
}
export type RpcHandler<R extends RpcDef> = (
  input: RpcInput<R>,
  ctx: RpcContext & { principal: R['anonymous'] extends true ? Principal | null : Principal },
) => Promise<RpcOutput<R>>;

/**
 * Calls RPCs over direct reply-to; a reply later than the deadline answers 503 service_unavailable.
 * Requests are published `mandatory`, so a call to a service whose queue does not exist comes back
 * from the broker at once and answers 503 without waiting out the deadline.
 */
export class RpcClient {
  private channel?: Channel;
  private readonly pending = new Map<string, { resolve: (r: Reply) => void; timer: NodeJS.Timeout }>();

  private constructor(
    private readonly bus: BusConnection,
    private readonly timeoutMs: number,
  ) {}

  static async create(bus: BusConnection, timeoutMs: number): Promise<RpcClient> {
    const client = new RpcClient(bus, timeoutMs);
    await bus.register(async (model) => {
      const ch = await model.createChannel();
      ch.on('error', () => undefined);
      ch.on('close', () => {
        if (client.channel === ch) client.channel = undefined;
      });
      ch.on('return', (msg: ConsumeMessage) => client.onReturn(msg));
      await ch.consume(REPLY_QUEUE, (msg) => msg && client.onReply(msg), { noAck: true });
      client.channel = ch;
    });
    return client;
  }

  private onReply(msg: ConsumeMessage): void {
    let reply: Reply;
    try {
      reply = JSON.parse(msg.content.toString()) as Reply;
    } catch {
      reply = { ok: false, error: { status: 500, code: 'internal_error', message: 'unreadable reply' } };
    }
    this.settle(stringProperty(msg.properties, 'correlationId'), reply);
  }

  /** The broker handed a request back: no queue is bound for that service. */
  private onReturn(msg: ConsumeMessage): void {
    const service = String(msg.properties.type ?? '').split('.')[0];
    this.settle(stringProperty(msg.properties, 'correlationId'), {
      ok: false,
      error: {
        status: 503,
        code: 'service_unavailable',
        message: `The ${service} service is unavailable (nobody serves it).`,
      },
    });
  }

  private settle(correlationId: string | undefined, reply: Reply): void {
    if (correlationId === undefined) return; // not an answer to one of our calls
    const entry = this.pending.get(correlationId);
    if (!entry) return; // late reply after its deadline
    this.pending.delete(correlationId);
    clearTimeout(entry.timer);
    entry.resolve(reply);
  }

  async call<R extends RpcDef>(
    def: R,
    input: RpcInput<R>,
    principal: Principal | null = null,
    opts: { timeoutMs?: number } = {},
  ): Promise<RpcOutput<R>> {
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const channel = this.channel;
    if (!channel)
      throw new AppError('service_unavailable', `The ${def.service} service is unavailable (broker not connected).`);
    const started = process.hrtime.bigint();
    const correlationId = randomUUID();
    const requestId = currentRequestId() ?? newRequestId();
    const reply = new Promise<Reply>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(correlationId);
        resolve({
          ok: false,
          error: {
            status: 503,
            code: 'service_unavailable',
            message: `The ${def.service} service did not answer in time.`,
          },
        });
      }, timeoutMs);
      this.pending.set(correlationId, { resolve, timer });
    });
    const body = Buffer.from(JSON.stringify({ principal, input }));
    const deadline = Date.now() + timeoutMs;
    channel.sendToQueue(this.bus.name(`rpc.${def.service}`), body, {
      correlationId,
      replyTo: REPLY_QUEUE,
      type: def.name,
      contentType: 'application/json',
      mandatory: true,
      expiration: String(timeoutMs),
      headers: {
        'x-request-id': requestId,
        'x-deadline': deadline,
        ...signatureHeaders(this.bus.keys, { namespace: this.bus.options.namespace, type: def.name, deadline, body }),
      },
    });
    const result = await reply;
    notify(
      this.bus.options.observer,
      'rpcCalled',
      def.name,
      result.ok ? 'ok' : result.error.code,
      secondsSince(started),
    );
    if (result.ok) return result.data as RpcOutput<R>;
    throw new AppError(result.error.code as never, result.error.message, result.error.details);
  }

  close(): void {
    for (const [, { resolve, timer }] of this.pending) {
      clearTimeout(timer);
      resolve({ ok: false, error: { status: 503, code: 'service_unavailable', message: 'client closing' } });
    }
    this.pending.clear();
  }
}

interface Registered {
  def: RpcDef;
  handler: RpcHandler<RpcDef>;
}

/** Serves one service's RPC queue: validates input, runs the handler, replies ok or error. */
export class RpcServer {
  private readonly handlers = new Map<string, Registered>();
  private channel?: Channel;
  private consumerTag?: string;
  private unregister?: () => void;
  private inFlight = 0;
  private drained?: () => void;

  constructor(
    private readonly bus: BusConnection,
    private readonly service: string,
    private readonly opts: { prefetch?: number } = {},
  ) {}

  handle<R extends RpcDef>(def: R, handler: RpcHandler<R>): this {
    if (def.service !== this.service) throw new Error(`${def.name} does not belong to ${this.service}`);
    this.handlers.set(def.name, { def, handler });
    return this;
  }

  async start(): Promise<void> {
    const queue = this.bus.name(`rpc.${this.service}`);
    const operatorCommands = [...this.handlers.values()].filter((h) => h.def.operator).map((h) => h.def.name);
    if (operatorCommands.length && !this.bus.keys.operatorCheck)
      this.bus.options.logger.warn('OPERATOR_KEY is not set: operator commands are refused', {
        commands: operatorCommands,
      });
    this.unregister = await this.bus.register(async (model) => {
      const ch = await model.createChannel();
      ch.on('error', () => undefined);
      await ch.assertQueue(queue, {
        durable: false,
        arguments: this.bus.options.ephemeral ? { 'x-expires': 60_000 } : {},
      });
      await ch.prefetch(this.opts.prefetch ?? 32);
      const { consumerTag } = await ch.consume(queue, (msg) => msg && void this.onRequest(ch, msg));
      this.channel = ch;
      this.consumerTag = consumerTag;
    });
  }

  private async onRequest(ch: Channel, msg: ConsumeMessage): Promise<void> {
    this.inFlight++;
    const headers = msg.properties.headers ?? {};
    const requestId = String(headers['x-request-id'] ?? newRequestId());
    try {
      const deadline = Number(headers['x-deadline'] ?? 0);
      if (deadline && Date.now() > deadline) return; // the caller has given up already
      const started = process.hrtime.bigint();
      const reply = await runWithContext({ requestId }, () => this.dispatch(msg, headers, requestId));
      notify(
        this.bus.options.observer,
        'rpcServed',
        String(msg.properties.type),
        reply.ok ? 'ok' : reply.error.code,
        secondsSince(started),
      );
      const replyTo = stringProperty(msg.properties, 'replyTo');
      if (replyTo) {
        ch.sendToQueue(replyTo, Buffer.from(JSON.stringify(reply)), {
          correlationId: stringProperty(msg.properties, 'correlationId'),
          contentType: 'application/json',
        });
      }
    } catch (err) {
      // The channel closed under us; the caller's deadline answers for the lost reply.
      this.bus.options.logger.warn('rpc reply not sent', {
        type: stringProperty(msg.properties, 'type'),
        err: (err as Error).message,
      });
    } finally {
      try {
        ch.ack(msg);
      } catch {
        /* channel closed: the request is redelivered to another replica */
      }
      if (--this.inFlight === 0) this.drained?.();
    }
  }

  private async dispatch(msg: ConsumeMessage, headers: Record<string, unknown>, requestId: string): Promise<Reply> {
    const type = String(msg.properties.type);
    const entry = this.handlers.get(type);
    try {
      this.assertCallerMay(entry?.def, type, headers, msg.content);
      if (!entry) throw new AppError('not_found', `Unknown command ${type}.`);
      let body: RequestBody;
      try {
        body = JSON.parse(msg.content.toString()) as RequestBody;
      } catch {
        throw new AppError('validation_error', 'RPC body is not JSON.');
      }
      const principal = body.principal ?? null;
      if (!principal && !entry.def.anonymous) throw new AppError('missing_api_key', 'This command needs a principal.');
      const input = assertValid(entry.def.input, body.input ?? {}, `${type} input`);
      const data = await entry.handler(input, {
        principal: principal as Principal,
        requestId,
        callId: stringProperty(msg.properties, 'correlationId') || undefined,
      });
      const check = compile(entry.def.output);
      if (!check(data)) {
        this.bus.options.logger.error('rpc output does not match its contract', {
          type,
          problems: describeErrors(check.errors),
        });
        throw new AppError('internal_error', 'The service produced an invalid answer.');
      }
      return { ok: true, data };
    } catch (err) {
      if (err instanceof AppError)
        return { ok: false, error: { status: err.status, code: err.code, message: err.message, details: err.details } };
      this.bus.options.logger.error('rpc handler failed', { type, err: (err as Error).stack ?? String(err) });
      return { ok: false, error: { status: 500, code: 'internal_error', message: 'Internal error.' } };
    }
  }

  /**
   * Refuses, before anything else runs, a request that no key of ours signed (a forged or altered
   * principal, a client that merely reached the broker) and an operator command the operator did not sign.
   */
  private assertCallerMay(def: RpcDef | undefined, type: string, headers: Record<string, unknown>, body: Buffer): void {
    const caller = checkCaller(this.bus.keys, headers, { namespace: this.bus.options.namespace, type, body });
    if (!caller.ok) {
      this.bus.options.logger.warn('rpc refused: caller not verified', { type, reason: caller.reason });
      throw new AppError(
        'invalid_signature',
        `The ${this.service} service refused ${type}: ${caller.reason}. Calls on the bus must be signed with BUS_PRINCIPAL_KEY (services) or OPERATOR_KEY (operators).`,
      );
    }
    if (def?.operator && !caller.operator) {
      this.bus.options.logger.warn('rpc refused: operator command without the operator key', { type });
      throw new AppError(
        'insufficient_scope',
        `${type} is an operator command: only a call signed with OPERATOR_KEY (pnpm postbus) may run it.`,
      );
    }
  }

  /** Stops taking requests and waits for those in flight. */
  async stop(): Promise<void> {
    this.unregister?.(); // a reconnect must not bring a stopped component back
    if (this.channel && this.consumerTag) await this.channel.cancel(this.consumerTag).catch(() => undefined);
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    await this.channel?.close().catch(() => undefined);
  }
}
