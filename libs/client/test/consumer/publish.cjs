// A CommonJS module of a project that installed the packed @postbus/client: publishes a post,
// waits for its outcome, and reads a missing post to see the error. Prints JSON.
//   node publish.cjs <baseUrl> <apiKey>
const { createClient, PostbusError } = require('@postbus/client');

async function main() {
  const [baseUrl, apiKey] = process.argv.slice(2);
  const postbus = createClient({ baseUrl, apiKey });
  const { postIds } = await postbus.publish({ platforms: ['threads'], caption: 'Hello from CommonJS' });
  const post = await postbus.waitForPost(postIds[0], { timeoutMs: 30_000 });
  const refused = await postbus.getPost('pst_missing').catch((err) => err);
  console.log(
    JSON.stringify({
      loaded: require.resolve('@postbus/client'),
      status: post.status,
      permalink: post.permalink,
      error: refused instanceof PostbusError ? { status: refused.status, code: refused.code } : String(refused),
    }),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
