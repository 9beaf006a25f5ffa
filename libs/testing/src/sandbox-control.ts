/**
 * One call of the sandbox's control API (`{sandboxUrl}/__sandbox{path}`): its users, settings and what each platform
 * received. `Body` is the shape of the answer, as the caller knows it from the sandbox's routes.
 */
export async function callSandbox<Body = unknown>(
  sandboxUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; headers: Headers; body: Body }> {
  const res = await fetch(`${sandboxUrl}/__sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as Body };
}
