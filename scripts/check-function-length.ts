/**
 * Lists every function longer than the limit (80 lines by default) in the source of services/,
 * libs/ and scripts/, and exits 1 when there is one. A function is anything with a body of its
 * own (declaration, expression, arrow, method, accessor, constructor); its length runs from its
 * first line to its last, nested functions included, so a long outer function is counted as
 * long even when it is mostly closures.
 *
 *   tsx scripts/check-function-length.ts [--max 80] [--include-tests] [dir or file ...]
 *
 * Test files (`test/` folders, `*.test.ts`) are left out unless `--include-tests` is given:
 * a `describe` block is a list of cases, not a function to split.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..');
const DEFAULT_DIRS = ['services', 'libs', 'scripts'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'build', 'coverage', '.git']);

export interface LongFunction {
  file: string;
  name: string;
  line: number;
  lines: number;
}

interface Options {
  max: number;
  includeTests: boolean;
  dirs: string[];
}

function parseArgs(argv: string[]): Options {
  const options: Options = { max: 80, includeTests: false, dirs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--max') options.max = Number(argv[++i]);
    else if (arg === '--include-tests') options.includeTests = true;
    else options.dirs.push(arg);
  }
  if (!Number.isInteger(options.max) || options.max < 1) throw new Error('--max takes a whole number of lines');
  if (!options.dirs.length) options.dirs = DEFAULT_DIRS;
  return options;
}

function isTestPath(path: string): boolean {
  return /(^|\/)test(\/|$)/.test(path) || /\.test\.ts$/.test(path);
}

function sourceFiles(dir: string, includeTests: boolean): string[] {
  if (!statSync(dir).isDirectory()) return [dir];
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(entry)) continue;
    const path = join(dir, entry);
    if (!includeTests && isTestPath(relative(ROOT, path))) continue;
    if (statSync(path).isDirectory()) found.push(...sourceFiles(path, includeTests));
    else if (/\.(ts|tsx|mts|cts)$/.test(entry) && !entry.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

function isFunctionLike(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** The name a reader would search for: its own, or the variable, property or call it is handed to. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(source);
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(source).slice(0, 40)})`;
  return '(anonymous)';
}

export function longFunctionsIn(file: string, text: string, max: number): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionLike(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) found.push({ file, name: nameOf(node, source), line: first + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function main(): void {
  const options = parseArgs(process.argv.slice(2));
  const offenders = options.dirs
    .flatMap((dir) => sourceFiles(resolve(ROOT, dir), options.includeTests))
    .flatMap((file) => longFunctionsIn(relative(ROOT, file), readFileSync(file, 'utf8'), options.max));
  for (const f of offenders) console.log(`${f.file}:${f.line}  ${f.name}  ${f.lines} lines`);
  if (offenders.length) {
    console.log(`\n${offenders.length} function(s) over ${options.max} lines`);
    process.exit(1);
  }
  console.log(`no function over ${options.max} lines`);
}

if (require.main === module) main();
