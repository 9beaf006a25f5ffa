/**
 * Keeps SQL in repositories. Lists, and exits 1 on any:
 * - a use case (`*.use-case.ts`) that imports TypeORM or runs SQL;
 * - any other source file that runs SQL, unless it is a repository (`*.repository.ts`), a
 *   migration, a data-source/bootstrap file or the kit's database port.
 *
 *   tsx scripts/check-sql-seams.ts [dir ...]
 *
 * "Runs SQL" means calling `query`, `createQueryBuilder` or `updateReturning`, or holding a string
 * that reads as a SQL statement. Test files are left out. Files still waiting to be moved are
 * named, each with its reason, in `scripts/sql-seams.allowed`; an entry that no longer offends
 * is reported too, so the list only shrinks.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..');
const DEFAULT_DIRS = ['services', 'libs'];
const ALLOW_FILE = join(__dirname, 'sql-seams.allowed');
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'build', 'coverage', '.git']);
const SQL_CALLS = new Set(['query', 'createQueryBuilder', 'updateReturning']);
/** A statement's opening words, in the upper case this codebase writes SQL in. */
const SQL_TEXT =
  /^\s*(SELECT\s[\s\S]*\sFROM\s|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|WITH\s+\w+\s+AS\s*\()/;

export interface Offence {
  file: string;
  line: number;
  what: string;
}

/** Where SQL may live: repositories, migrations, data-source/bootstrap, the kit's port, test support. */
export function mayRunSql(file: string): boolean {
  return (
    /\.repository\.ts$/.test(file) ||
    /(^|\/)migrations\//.test(file) ||
    /(^|\/)(main|data-source|datasource|database-roles)\.ts$/.test(file) ||
    /^libs\/kit\/src\/db\//.test(file) ||
    // The outbox table's own store and migration, shared by every service that announces events.
    file === 'libs/bus/src/outbox.ts' ||
    // Service bootstrap: the health and readiness probe's `SELECT 1`.
    file === 'libs/service/src/index.ts' ||
    /^libs\/testing\//.test(file)
  );
}

function isTestPath(path: string): boolean {
  return /(^|\/)test(\/|$)/.test(path) || /\.test\.ts$/.test(path);
}

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(entry)) continue;
    const path = join(dir, entry);
    if (isTestPath(relative(ROOT, path))) continue;
    if (statSync(path).isDirectory()) found.push(...sourceFiles(path));
    else if (/\.ts$/.test(entry) && !entry.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** The method called (`db.query(…)`); a plain function of the same name (`query(req.query.x)`) is not SQL. */
function calledMethod(node: ts.CallExpression): string | undefined {
  const callee = node.expression;
  return ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
}

function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text;
  return undefined;
}

export function offencesIn(file: string, text: string): Offence[] {
  const useCase = /\.use-case\.ts$/.test(file);
  if (!useCase && mayRunSql(file)) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Offence[] = [];
  const at = (node: ts.Node, what: string): void => {
    found.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, what });
  };
  const visit = (node: ts.Node): void => {
    if (
      useCase &&
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      /^typeorm(\/|$)/.test(node.moduleSpecifier.text)
    )
      at(node, 'imports typeorm');
    if (ts.isCallExpression(node)) {
      const name = calledMethod(node);
      if (name && SQL_CALLS.has(name)) at(node, `calls ${name}()`);
    }
    const literal = literalText(node);
    if (literal !== undefined && SQL_TEXT.test(literal)) at(node, 'holds SQL text');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `path  # why it still runs SQL` lines; blank lines and `#` comments ignored. */
export function readAllowList(text: string): Set<string> {
  return new Set(
    text
      .split('\n')
      .map((line) => line.replace(/#.*$/, '').trim())
      .filter(Boolean),
  );
}

export interface SeamReport {
  offences: Offence[];
  allowed: Offence[];
  /** Allow-list entries whose file no longer offends: to be removed from the list. */
  stale: string[];
}

export function checkSqlSeams(
  dirs = DEFAULT_DIRS,
  allowList = existsSync(ALLOW_FILE) ? readAllowList(readFileSync(ALLOW_FILE, 'utf8')) : new Set<string>(),
): SeamReport {
  const roots = dirs.map((dir) => relative(ROOT, resolve(ROOT, dir)));
  const all = roots
    .flatMap((dir) => sourceFiles(resolve(ROOT, dir)))
    .flatMap((path) => offencesIn(relative(ROOT, path), readFileSync(path, 'utf8')));
  const offending = new Set(all.map((o) => o.file));
  const scanned = (file: string) => roots.some((dir) => file.startsWith(`${dir}/`));
  return {
    offences: all.filter((o) => !allowList.has(o.file)),
    allowed: all.filter((o) => allowList.has(o.file)),
    stale: [...allowList].filter((file) => scanned(file) && !offending.has(file)),
  };
}

function main(): void {
  const dirs = process.argv.slice(2);
  const report = checkSqlSeams(dirs.length ? dirs : DEFAULT_DIRS);
  for (const o of report.offences) console.log(`${o.file}:${o.line}  ${o.what}`);
  for (const file of report.stale)
    console.log(`${file}  listed in scripts/sql-seams.allowed but runs no SQL any more: remove the entry`);
  const allowedFiles = new Set(report.allowed.map((o) => o.file));
  if (allowedFiles.size) console.log(`(${allowedFiles.size} file(s) still allowed by scripts/sql-seams.allowed)`);
  if (report.offences.length || report.stale.length) {
    console.log(
      `\n${new Set(report.offences.map((o) => o.file)).size} file(s) with SQL outside a repository, ${report.stale.length} stale allow-list entr(ies)`,
    );
    process.exit(1);
  }
  console.log('SQL only in repositories, migrations and bootstrap');
}

if (require.main === module) main();
