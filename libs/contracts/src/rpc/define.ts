import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** One RPC: queue `rpc.<service>`, message type `<service>.<command>`, validated input and output. */
export interface RpcDef<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  name: string;
  service: string;
  input: I;
  output: O;
  /** True when the caller needs no principal (credential checks, health, operator calls). */
  anonymous?: boolean;
  /** True when only the operator may call it: the request must be signed with OPERATOR_KEY (libs/bus refuses it otherwise). */
  operator?: boolean;
}
export type RpcInput<R> = R extends RpcDef<infer I, TSchema> ? Static<I> : never;
export type RpcOutput<R> = R extends RpcDef<TSchema, infer O> ? Static<O> : never;

export function defineRpc<I extends TSchema, O extends TSchema>(
  name: string,
  input: I,
  output: O,
  opts: { anonymous?: boolean; operator?: boolean } = {},
): RpcDef<I, O> {
  return { name, service: name.split('.')[0], input, output, ...opts };
}

export const HealthSchema = Type.Object({
  service: Type.String(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  checks: Type.Record(Type.String(), Type.String()),
});

export function healthRpc(service: string) {
  return defineRpc(`${service}.health`, Type.Object({}), HealthSchema, { anonymous: true });
}
