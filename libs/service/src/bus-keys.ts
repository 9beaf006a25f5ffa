import { DEV_BUS_PRINCIPAL_KEY, DEV_OPERATOR_KEY, type BusKeys } from '@postbus/bus';
import { ConfigError, oneOf, type VarSpec } from '@postbus/kit';

const MIN_KEY_LENGTH = 32;

function busKey(doc: string, def: string): VarSpec<string> {
  return {
    doc,
    default: def,
    parse(raw) {
      if (raw.length < MIN_KEY_LENGTH) throw new Error(`expected at least ${MIN_KEY_LENGTH} characters`);
      return raw;
    },
  };
}

/** The keys that decide who may speak on the bus (libs/bus/src/call-signature.ts). */
export const busKeyVars = {
  POSTBUS_ENV: oneOf(
    'development | test | production; production refuses development secrets',
    ['development', 'test', 'production'] as const,
    'development',
  ),
  BUS_PRINCIPAL_KEY: busKey(
    "Signs every RPC this service makes (the caller's principal with it) and checks every RPC it serves; the same value in every service, never given to operators or clients (required in production)",
    DEV_BUS_PRINCIPAL_KEY,
  ),
  OPERATOR_KEY: busKey(
    'Checks operator commands (`pnpm postbus`: accounts, keys, profile seeding, key rotations); only auth, connections and webhooks need it, and without it in production they refuse those commands',
    DEV_OPERATOR_KEY,
  ),
};

/**
 * A service's bus keys: it signs with BUS_PRINCIPAL_KEY and checks operator commands with
 * OPERATOR_KEY, never signing as the operator. Production refuses the development principal
 * key outright; with the development operator key it serves no operator command at all.
 */
export function serviceBusKeys(config: {
  POSTBUS_ENV: string;
  BUS_PRINCIPAL_KEY: string;
  OPERATOR_KEY: string;
}): BusKeys {
  const production = config.POSTBUS_ENV === 'production';
  if (production && config.BUS_PRINCIPAL_KEY === DEV_BUS_PRINCIPAL_KEY)
    throw new ConfigError(['BUS_PRINCIPAL_KEY must be set in production (the same random value in every service)']);
  return {
    call: config.BUS_PRINCIPAL_KEY,
    operatorCheck: production && config.OPERATOR_KEY === DEV_OPERATOR_KEY ? undefined : config.OPERATOR_KEY,
  };
}
