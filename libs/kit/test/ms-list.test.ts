import { ConfigError, loadConfig, msList, parseMsList } from '../src';

describe('comma-separated millisecond lists', () => {
  it('when the items are positive whole numbers, spaces around them allowed, then they are read in order', () => {
    expect(parseMsList('200, 1000,5000 ')).toEqual([200, 1000, 5000]);
    expect(parseMsList('7')).toEqual([7]);
  });

  it.each([
    ['an empty item', '100,,200'],
    ['a trailing comma', '100,200,'],
    ['a blank item', '100, ,200'],
    ['zero', '0,100'],
    ['a negative number', '-5'],
    ['a decimal', '1.5'],
    ['an exponent', '1e3'],
    ['hex', '0x10'],
    ['a word', '10,soon'],
    ['a number too large to hold exactly', '9007199254740993'],
  ])('when the list holds %s, then it is refused', (_label, raw) => {
    expect(() => parseMsList(raw)).toThrow('expected comma-separated positive milliseconds');
  });

  it('when a config variable holds a bad list, then loading names the variable and the reason', () => {
    const specs = { RETRY_DELAYS_MS: msList('Delays before each retry', [1000]) };
    expect(loadConfig(specs, {}).RETRY_DELAYS_MS).toEqual([1000]);
    expect(() => loadConfig(specs, { RETRY_DELAYS_MS: '100,,200' })).toThrow(ConfigError);
    expect(() => loadConfig(specs, { RETRY_DELAYS_MS: '100,,200' })).toThrow(
      /RETRY_DELAYS_MS="100,,200": expected comma-separated positive milliseconds/,
    );
  });
});
