import { longFunctionsIn } from '../check-function-length';

const body = (lines: number) => Array.from({ length: lines }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('check-function-length', () => {
  test('when a function runs past the limit, then it is reported with its name, first line and length', () => {
    const text = `export function short() {\n${body(3)}\n}\n\nexport async function long() {\n${body(9)}\n}\n`;
    expect(longFunctionsIn('x.ts', text, 10)).toEqual([{ file: 'x.ts', name: 'long', line: 7, lines: 11 }]);
  });

  test('when a function is exactly at the limit, then it is not reported', () => {
    expect(longFunctionsIn('x.ts', `function atLimit() {\n${body(8)}\n}\n`, 10)).toEqual([]);
  });

  test('when long arrows, methods and callbacks hold nested closures, then each long one is named by where it sits', () => {
    const text = [
      `const handler = async () => {\n${body(11)}\n};`,
      `class Repo {\n  find() {\n${body(11)}\n  }\n}`,
      `describe('suite', () => {\n${body(11)}\n});`,
    ].join('\n');
    expect(longFunctionsIn('x.ts', text, 10).map((f) => f.name)).toEqual(['handler', 'find', '(callback of describe)']);
  });
});
