import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ERROR_STATUS, Routes, type RouteDef } from '@postbus/contracts';
import { declaredVars, ROOT, staleDocs } from '../generate-docs';

const GENERATED = new Set(['docs/api.md', 'docs/configuration.md']);

/** README.md and every Markdown file under docs/, as paths relative to the root. */
function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir)).flatMap((name) => {
      const path = `${dir}/${name}`;
      if (statSync(join(ROOT, path)).isDirectory()) return walk(path);
      return name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...walk('docs')];
}

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The text outside fenced code blocks: examples may show anything. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slugOf(heading: string): string {
  return heading
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown file offers: its headings (numbered when repeated) and its `<a id>` tags. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(text).split('\n')) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (heading) {
      const slug = slugOf(heading[1]);
      const n = seen.get(slug) ?? 0;
      seen.set(slug, n + 1);
      anchors.add(n ? `${slug}-${n}` : slug);
    }
    for (const [, id] of line.matchAll(/<a id="([^"]+)"/g)) anchors.add(id);
  }
  return anchors;
}

/** Links `[text](target)` that stay inside the repository. */
function relativeLinks(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target)
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** The problems of one link from `file`, or none. */
function brokenLink(file: string, target: string): string | undefined {
  const [path, anchor] = target.split('#') as [string, string | undefined];
  const resolved = path ? relative(ROOT, join(ROOT, dirname(file), path)) : file;
  if (!existsSync(join(ROOT, resolved))) return `${file}: ${target} (no file ${resolved})`;
  if (anchor && resolved.endsWith('.md') && !anchorsOf(read(resolved)).has(anchor))
    return `${file}: ${target} (no anchor #${anchor} in ${resolved})`;
  return undefined;
}

test('when the contracts or a config schema change, then docs/api.md and docs/configuration.md are regenerated to match', async () => {
  const stale = await staleDocs();
  if (stale.length)
    throw new Error(
      `${stale.join(', ')} ${stale.length === 1 ? 'is' : 'are'} stale: run pnpm docs:gen and commit the result`,
    );
});

test('when the README or a doc links to a file or an anchor, then it exists', () => {
  const files = markdownFiles();
  const broken = files.flatMap((file) => relativeLinks(read(file)).flatMap((target) => brokenLink(file, target) ?? []));
  expect(broken).toEqual([]);
  expect(files).toEqual(
    expect.arrayContaining(['README.md', 'docs/api.md', 'docs/configuration.md', 'docs/errors.md']),
  );
});

test('when an error code exists, then docs/errors.md explains it, and it explains no code that does not exist', () => {
  const explained = [...read('docs/errors.md').matchAll(/<a id="([a-z_]+)"><\/a>`([a-z_]+)`/g)].map(([, id, code]) => {
    expect(id).toBe(code);
    return code;
  });
  expect([...explained].sort()).toEqual(Object.keys(ERROR_STATUS).sort());
});

/** Written in capitals like a variable, but the platforms' or the broker's own words. */
const NOT_VARIABLES = new Set([
  'ACCESS_REFUSED', // RabbitMQ's refusal
  'CREATE_CONTENT', // a Facebook Page task
  'ERROR_STATUS', // the table in libs/contracts
  'FACEBOOK_VIDEO_API_URL', // named as removed
  'FILE_UPLOAD', // TikTok's upload sources and states …
  'PULL_FROM_URL',
  'PUBLISH_COMPLETE',
  'PUBLIC_TO_EVERYONE', // … and privacy levels
  'MUTUAL_FOLLOW_FRIENDS',
  'FOLLOWER_OF_CREATOR',
  'SELF_ONLY',
  'LOGGED_IN', // LinkedIn's visibility of a post
  'PROCESSING_FAILED', // LinkedIn's asset status
  'TOTAL_COMMENTS', // a Pinterest pin metric
]);

/** The files under `dir`, relative to the root, leaving out node_modules (whose workspace links lead round in circles). */
function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.name === 'node_modules') return [];
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

/** Variables read outside the services: by scripts, benches, tests and the deployment files. */
function otherVariables(): Set<string> {
  const names = new Set<string>();
  const scan = (dir: string, pattern: RegExp, extract: RegExp[]) => {
    for (const file of filesUnder(dir)) {
      if (!pattern.test(file)) continue;
      const path = join(ROOT, file);
      const text = readFileSync(path, 'utf8');
      for (const re of extract) for (const [, name] of text.matchAll(re)) names.add(name);
    }
  };
  const envReads = [/\benv\.([A-Z][A-Z0-9_]+)/g, /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g];
  for (const dir of ['scripts', 'bench', 'tests', 'libs/testing/src']) scan(dir, /\.(ts|mjs)$/, envReads);
  scan('deploy', /(\.(env|ya?ml|sh)|Dockerfile)$/, [
    /^\s*-?\s*([A-Z][A-Z0-9_]+)[=:]/gm,
    /(?:name|key): ([A-Z][A-Z0-9_]+)\b/g,
  ]);
  for (const [, name] of read('docker-compose.yml').matchAll(/^\s*-?\s*([A-Z][A-Z0-9_]+)[=:]/gm)) names.add(name);
  return names;
}

test('when a hand-written doc names an endpoint or a configuration variable, then it exists', async () => {
  const routes = (Object.values(Routes) as RouteDef[]).map(
    (r) => new RegExp(`^${r.path.replace(/\{\w+\}/g, '[^/]+')}$`),
  );
  const { vars } = await declaredVars();
  const known = new Set([...vars.map((v) => v.name), ...otherVariables(), ...NOT_VARIABLES]);
  const unknown: string[] = [];
  for (const file of markdownFiles().filter((f) => !GENERATED.has(f))) {
    const text = prose(read(file));
    for (const [, path] of text.matchAll(
      /`(?:(?:GET|POST|PATCH|PUT|DELETE)(?:`\/`(?:GET|POST|PATCH|PUT|DELETE))? )?(\/api\/v1\/[^`\s?[]*)/g,
    )) {
      if (!routes.some((re) => re.test(path))) unknown.push(`${file}: endpoint ${path}`);
    }
    for (const [, name] of text.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g)) {
      if (!known.has(name)) unknown.push(`${file}: variable ${name}`);
    }
  }
  expect(unknown).toEqual([]);
});
