import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkSqlSeams, offencesIn, readAllowList } from '../check-sql-seams';

const ROOT = join(__dirname, '..', '..');

test('when the services and libs are checked, then SQL runs only in repositories, migrations and bootstrap, and every allowed file still needs its entry', () => {
  const report = checkSqlSeams();
  expect(report.offences).toEqual([]);
  expect(report.stale).toEqual([]);
});

test('when a use case imports TypeORM or runs SQL, then each is named with its line', () => {
  const text = [
    "import type { DataSource } from 'typeorm';",
    'export async function issue(ds: DataSource) {',
    "  await ds.query('SELECT id FROM users WHERE id = $1', ['u']);",
    '}',
  ].join('\n');
  expect(offencesIn('services/x/src/keys/issue.use-case.ts', text)).toEqual([
    { file: 'services/x/src/keys/issue.use-case.ts', line: 1, what: 'imports typeorm' },
    { file: 'services/x/src/keys/issue.use-case.ts', line: 3, what: 'calls query()' },
    { file: 'services/x/src/keys/issue.use-case.ts', line: 3, what: 'holds SQL text' },
  ]);
});

test('when SQL sits outside a repository (a call, an update through the port, or a statement handed on), then it is named; in a repository or migration it is not', () => {
  const body =
    "export const f = (db: any) => db.updateReturning(`UPDATE posts SET status = 'x' WHERE id = $1 RETURNING id`, [1]);";
  expect(offencesIn('services/x/src/posts/counts.query.ts', body).map((o) => o.what)).toEqual([
    'calls updateReturning()',
    'holds SQL text',
  ]);
  expect(
    offencesIn('services/x/src/posts/handed-on.ts', "export const sql = 'DELETE FROM posts WHERE id = $1';").map(
      (o) => o.what,
    ),
  ).toEqual(['holds SQL text']);
  expect(offencesIn('services/x/src/posts/post.repository.ts', body)).toEqual([]);
  expect(offencesIn('services/x/src/migrations/1-create.ts', body)).toEqual([]);
});

test('when code calls a plain function named query or writes prose, then nothing is named', () => {
  const text = [
    'const query = (v: unknown) => String(v);',
    'export const platform = query(req.query.platform);',
    "export const hint = 'Update the post, then select a slot from the list.';",
  ].join('\n');
  expect(offencesIn('services/x/src/http/routes.ts', text)).toEqual([]);
});

test('when the allow-list is read, then comments and blank lines are ignored', () => {
  expect([...readAllowList('# why\n\nservices/a.ts  # still here\n  services/b.ts\n')]).toEqual([
    'services/a.ts',
    'services/b.ts',
  ]);
});

test('when the script finds an offender, then it lists it and exits 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sql-seams-'));
  try {
    const file = join(dir, 'src', 'report.ts');
    mkdirSync(dirname(file), { recursive: true });
    const check = () =>
      spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'check-sql-seams.ts'), dir], {
        cwd: ROOT,
        encoding: 'utf8',
      });
    writeFileSync(file, 'export const run = (ds: { query(sql: string): unknown }) => ds;\n');
    expect(check().status).toBe(0);
    writeFileSync(file, "export const run = (ds: any) => ds.query('SELECT 1 FROM posts');\n");
    const run = check();
    expect(run.stdout).toContain('report.ts:1  calls query()');
    expect(run.status).toBe(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
