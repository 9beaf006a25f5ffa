import { startSandbox, type RunningSandbox } from '../src/main';
import { aThreadsAccount, control, graph, injectFault } from './sandbox-client';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());
beforeEach(() => control(sandbox, 'POST', '/reset'));

describe('the sandbox control API', () => {
  test('when a user is created, then it answers a token the platform recognises', async () => {
    const { status, body } = await control(sandbox, 'POST', '/users', { platform: 'threads', handle: 'lin' });

    expect(status).toBe(201);
    expect(body).toEqual({
      platform: 'threads',
      userId: expect.stringMatching(/^\d+$/),
      accessToken: expect.stringMatching(/^THAA/),
      handle: 'lin',
    });
  });

  test.each([
    [{ platform: 'myspace', handle: 'lin' }],
    [{ platform: 'threads', handle: 'has space' }],
    [{ platform: 'threads' }],
    [{ platform: 'threads', handle: 'lin', extra: 1 }],
  ])('when a user is created with %j, then it is refused with validation_error', async (input) => {
    const { status, body } = await control(sandbox, 'POST', '/users', input);

    expect(status).toBe(400);
    expect(body.code).toBe('validation_error');
  });

  test('when the body is not JSON, then it answers invalid_json', async () => {
    const res = await fetch(`${sandbox.url}/__sandbox/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });

    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('invalid_json');
  });

  test('when published posts are listed for an unknown platform, then it answers unsupported_platform', async () => {
    const { status, body } = await control(sandbox, 'GET', '/published?platform=myspace');

    expect(status).toBe(400);
    expect(body.code).toBe('unsupported_platform');
  });

  test('when a fault has a count of 2, then exactly the next two matching calls fail', async () => {
    const account = await aThreadsAccount(sandbox);
    await injectFault(sandbox, { mode: 'error', code: 1, operation: 'create', count: 2 });
    const create = () => graph(account, 'POST', '/me/threads', { media_type: 'TEXT', text: 'x' });

    const statuses = [(await create()).status, (await create()).status, (await create()).status];

    expect(statuses).toEqual([500, 500, 200]);
  });

  test('when mode none is sent, then queued faults are cleared', async () => {
    const account = await aThreadsAccount(sandbox);
    await injectFault(sandbox, { mode: 'error', operation: 'any', count: 5 });

    await control(sandbox, 'POST', '/faults', { platform: 'threads', mode: 'none' });

    expect((await graph(account, 'GET', '/me')).status).toBe(200);
    expect((await control(sandbox, 'GET', '/faults')).body).toEqual({ faults: [] });
  });

  test('when a fault targets another platform, then Threads calls are untouched', async () => {
    const account = await aThreadsAccount(sandbox);
    await control(sandbox, 'POST', '/faults', { platform: 'instagram', mode: 'error', operation: 'any' });

    expect((await graph(account, 'GET', '/me')).status).toBe(200);
  });

  test('when the sandbox is reset, then tokens stop working and nothing is listed as published', async () => {
    const account = await aThreadsAccount(sandbox);
    const { body } = await graph(account, 'POST', '/me/threads', { media_type: 'TEXT', text: 'x' });
    await graph(account, 'POST', `/me/threads_publish?creation_id=${body.id}`);
    expect((await control(sandbox, 'GET', '/published')).body).toHaveLength(1);

    await control(sandbox, 'POST', '/reset');

    expect((await control(sandbox, 'GET', '/published')).body).toEqual([]);
    expect((await graph(account, 'GET', '/me')).status).toBe(401);
  });

  test('when latency is set, then platform answers are delayed by it but the control API is not', async () => {
    const account = await aThreadsAccount(sandbox);
    await control(sandbox, 'POST', '/settings', { latencyMs: 150 });

    let started = Date.now();
    await graph(account, 'GET', '/me');
    const platformMs = Date.now() - started;
    started = Date.now();
    await control(sandbox, 'GET', '/faults');
    const controlMs = Date.now() - started;

    expect(platformMs).toBeGreaterThanOrEqual(145);
    expect(controlMs).toBeLessThan(100);
  });

  test('when an unknown path is asked, then the answer is 404 not_found', async () => {
    const { status, body } = await control(sandbox, 'GET', '/nope');
    const res = await fetch(`${sandbox.url}/tiktok/v2/whatever`);

    expect(status).toBe(404);
    expect(body.code).toBe('not_found');
    expect(res.status).toBe(404);
  });

  test('when a timeout fault is not applied, then the request hangs and nothing happens', async () => {
    const account = await aThreadsAccount(sandbox);
    await injectFault(sandbox, { mode: 'timeout', operation: 'create', applied: false });

    const outcome = await Promise.race([
      graph(account, 'POST', '/me/threads', { media_type: 'TEXT', text: 'x' }).then(() => 'answered'),
      new Promise((resolve) => setTimeout(() => resolve('held'), 200)),
    ]);

    expect(outcome).toBe('held');
    expect(sandbox.state.threads.containers.size).toBe(0);
    sandbox.state.held.releaseAll();
  });
});
