import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DockerfileParser, type Instruction, type ModifiableInstruction } from 'dockerfile-ast';
import { ROOT } from './support/service-config';

const text = readFileSync(join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
const dockerfile = DockerfileParser.parse(text);

interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

/** The instructions of each stage, in order (those before the first FROM are global ARGs). */
function stages(): Stage[] {
  const out: Stage[] = [];
  for (const i of dockerfile.getInstructions()) {
    if (i.getKeyword() === 'FROM') {
      const [from, , name] = i.getArgumentsContent()!.split(/\s+/);
      out.push({ name, from, instructions: [] });
    } else out.at(-1)?.instructions.push(i);
  }
  return out;
}
const args = (i: Instruction) => i.getArgumentsContent() ?? '';
const flags = (i: Instruction) => (i as ModifiableInstruction).getFlags();
const of = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.getKeyword() === keyword);
const globalArg = (name: string) =>
  dockerfile.getInstructions().find((i) => i.getKeyword() === 'ARG' && args(i).startsWith(`${name}=`));

test('when the image is built, then it is multi-stage and the last stage (the default target) is the runtime image', () => {
  const all = stages();
  expect(all.map((s) => s.name)).toEqual(['workspace', 'build', 'operator', 'runtime']);
  expect(all.at(-1)!.from).toBe('${NODE_IMAGE}');
  expect(args(globalArg('NODE_IMAGE')!)).toMatch(/^NODE_IMAGE=node:20-bookworm-slim$/);
  const stageNames = new Set(all.map((s) => s.name));
  for (const stage of all) if (!stage.from.startsWith('${')) expect(stageNames).toContain(stage.from);
});

test('when a container runs, then it runs as an unprivileged numeric user and starts the compiled service with plain node', () => {
  const runtime = stages().at(-1)!;
  const [user] = of(runtime, 'USER').map(args);
  const [uid] = user.split(':');

  expect(Number(uid)).toBeGreaterThan(0);
  expect(JSON.parse(args(of(runtime, 'CMD')[0]))).toEqual(['node', '--enable-source-maps', 'src/main.js']);
  expect(of(runtime, 'ENTRYPOINT')).toEqual([]);
  expect(runtime.instructions.findIndex((i) => i.getKeyword() === 'USER')).toBeGreaterThan(
    runtime.instructions.findIndex((i) => i.getKeyword() === 'COPY'),
  );
  expect(
    of(
      stages().find((s) => s.name === 'operator')!,
      'USER',
    ).map(args),
  ).toEqual(['1000:1000']);
});

/** The one install of the runtime stage: Debian's ffmpeg and libheif's heif-convert (HEIC photos), for media and the transcoder only. */
const MEDIA_FFMPEG =
  'if [ "${SERVICE}" = media ] || [ "${SERVICE}" = transcoder ]; then apt-get update && apt-get install -y --no-install-recommends ffmpeg libheif-examples && rm -rf /var/lib/apt/lists/*; fi';

test("when the runtime stage is assembled, then it holds only the bundle of the build stage: no compiler, no source tree, no install but media's ffmpeg and heif-convert", () => {
  const runtime = stages().at(-1)!;
  const copies = of(runtime, 'COPY');

  expect(of(runtime, 'RUN').map(args)).toEqual([MEDIA_FFMPEG]);
  expect(copies.map((c) => [flags(c).map((f) => `${f.getName()}=${f.getValue()}`), args(c)])).toEqual([
    [['from=build'], '/out /app'],
  ]);
  expect(of(runtime, 'ENV').map(args).join(' ')).toMatch(/NODE_ENV=production/);
  expect(of(runtime, 'ENV').map(args).join(' ')).toMatch(/METRICS_PORT=9464/);
  expect(of(runtime, 'EXPOSE').map(args)).toEqual(['9464']);
});

test('when SERVICE is passed, then the build stage refuses to run without it and bundles that service with production dependencies only', () => {
  const build = stages().find((s) => s.name === 'build')!;
  const runs = of(build, 'RUN').map(args);

  expect(of(build, 'ARG').map(args)).toEqual(['SERVICE']);
  expect(runs[0]).toMatch(/test -n "\$\{SERVICE\}" \|\|/);
  expect(runs[1]).toBe('node deploy/build/bundle-service.mjs "${SERVICE}" /out');
  expect(readFileSync(join(ROOT, 'deploy', 'build', 'bundle-service.mjs'), 'utf8')).toMatch(/'deploy', '--prod'/);
});

test('when the workspace is installed, then the lockfile is honoured and the dependency layer depends on the lockfile alone', () => {
  const workspace = stages()[0];
  const sequence = workspace.instructions.map((i) => `${i.getKeyword()} ${args(i)}`);
  const fetchAt = sequence.indexOf('RUN pnpm fetch');

  expect(fetchAt).toBeGreaterThan(0);
  expect(sequence[fetchAt - 1]).toBe('COPY pnpm-lock.yaml pnpm-workspace.yaml package.json ./');
  expect(sequence).toContain('RUN pnpm install --frozen-lockfile --offline');
  expect(args(globalArg('PNPM_VERSION')!)).toBe(
    `PNPM_VERSION=${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).packageManager.split('@')[1]}`,
  );
});

test('when files are copied from the context, then each exists and the ignore file keeps node_modules, tests and local data out', () => {
  for (const stage of stages()) {
    for (const copy of of(stage, 'COPY').filter((c) => !flags(c).some((f) => f.getName() === 'from'))) {
      const sources = args(copy).split(/\s+/).slice(0, -1);
      for (const source of sources) expect([source, existsSync(join(ROOT, source))]).toEqual([source, true]);
    }
  }
  const ignored = readFileSync(join(ROOT, 'deploy', 'Dockerfile.dockerignore'), 'utf8').split('\n');
  expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '.git', '.data', '**/test']));
  expect(ignored).not.toContain('scripts');
});

test('when the media image is built, then it carries ffprobe where media looks for it, installed as root before the code', () => {
  const runtime = stages().at(-1)!;
  const at = (keyword: string) => runtime.instructions.findIndex((i) => i.getKeyword() === keyword);
  const install = runtime.instructions.findIndex((i) => i.getKeyword() === 'RUN' && args(i) === MEDIA_FFMPEG);

  expect(install).toBeGreaterThan(-1);
  expect(install).toBeLessThan(at('COPY'));
  expect(install).toBeLessThan(at('USER'));
  expect(readFileSync(join(ROOT, 'services', 'media', 'src', 'config.ts'), 'utf8')).toMatch(
    /FFPROBE_PATH: str\([\s\S]*?'\/usr\/bin\/ffprobe',?\s*\),$/m,
  );
  expect(readFileSync(join(ROOT, 'services', 'media', 'src', 'config.ts'), 'utf8')).toMatch(
    /HEIF_CONVERT_PATH: str\([\s\S]*?'\/usr\/bin\/heif-convert',?\s*\),$/m,
  );
});
