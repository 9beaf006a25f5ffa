import { DEV_BUS_PRINCIPAL_KEY, DEV_OPERATOR_KEY } from '@postbus/bus';
import { ConfigError, loadConfig } from '@postbus/kit';
import { busKeyVars, serviceBusKeys } from '../src/bus-keys';

const strong = (c: string) => c.repeat(40);

test('when no keys are configured outside production, then a service uses the development keys and checks operator commands with the development operator key', () => {
  const keys = serviceBusKeys(loadConfig(busKeyVars, {}));

  expect(keys).toEqual({ call: DEV_BUS_PRINCIPAL_KEY, operatorCheck: DEV_OPERATOR_KEY });
  expect(keys.operator).toBeUndefined(); // a service never signs as the operator
});

test('when production runs with the development bus key, then the service refuses to start', () => {
  expect(() => serviceBusKeys(loadConfig(busKeyVars, { POSTBUS_ENV: 'production' }))).toThrow(ConfigError);
  expect(() => serviceBusKeys(loadConfig(busKeyVars, { POSTBUS_ENV: 'production' }))).toThrow(
    /BUS_PRINCIPAL_KEY must be set in production/,
  );
});

test('when production has its own bus key but no operator key, then operator commands cannot be checked and so are refused', () => {
  const keys = serviceBusKeys(loadConfig(busKeyVars, { POSTBUS_ENV: 'production', BUS_PRINCIPAL_KEY: strong('b') }));

  expect(keys).toEqual({ call: strong('b'), operatorCheck: undefined });
  expect(
    serviceBusKeys(
      loadConfig(busKeyVars, { POSTBUS_ENV: 'production', BUS_PRINCIPAL_KEY: strong('b'), OPERATOR_KEY: strong('o') }),
    ).operatorCheck,
  ).toBe(strong('o'));
});

test('when a key is shorter than 32 characters, then the configuration is refused naming it', () => {
  expect(() => loadConfig(busKeyVars, { BUS_PRINCIPAL_KEY: 'short', OPERATOR_KEY: 'also-short' })).toThrow(
    /BUS_PRINCIPAL_KEY.*at least 32[\s\S]*OPERATOR_KEY.*at least 32/,
  );
});
