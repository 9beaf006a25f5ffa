/** What `run` writes with console.log while it runs, one line each, instead of to the test's output. */
export async function loggedBy(run: () => Promise<unknown>): Promise<string> {
  const lines: string[] = [];
  const spy = jest.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines.join('\n');
}
