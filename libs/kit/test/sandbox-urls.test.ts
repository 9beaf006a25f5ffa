import { exactSandboxDefault, fillSandboxUrls, loadConfig, sandboxDefault, sandboxVars } from '../src';

const specs = {
  ...sandboxVars,
  GRAPH_URL: sandboxDefault('Graph host; real: https://graph.example.com'),
  AUTHORIZE_URL: exactSandboxDefault('Consent page; real: https://www.example.com/v2/auth/authorize/'),
};
const PATHS = { GRAPH_URL: '/graph', AUTHORIZE_URL: '/example/v2/auth/authorize/' } as const;

describe('platform URLs under the sandbox', () => {
  it('when a platform URL is left empty, then it points at its path under SANDBOX_URL', () => {
    const config = loadConfig(specs, { SANDBOX_URL: 'http://127.0.0.1:4999/' });
    fillSandboxUrls(config, PATHS);
    expect(config).toMatchObject({
      GRAPH_URL: 'http://127.0.0.1:4999/graph',
      AUTHORIZE_URL: 'http://127.0.0.1:4999/example/v2/auth/authorize/',
    });
  });

  it('when a platform URL is set, then it is kept: an exact one to the letter, another without its trailing slash', () => {
    const config = loadConfig(specs, {
      GRAPH_URL: 'https://graph.example.com/',
      AUTHORIZE_URL: 'https://www.example.com/v2/auth/authorize/',
    });
    fillSandboxUrls(config, PATHS);
    expect(config).toMatchObject({
      GRAPH_URL: 'https://graph.example.com',
      AUTHORIZE_URL: 'https://www.example.com/v2/auth/authorize/',
    });
  });

  it('when a platform URL is malformed, then loading refuses it and says the sandbox stands in when it is empty', () => {
    expect(() => loadConfig(specs, { GRAPH_URL: 'not a url' })).toThrow(
      /GRAPH_URL="not a url".*\(empty: under SANDBOX_URL\)/,
    );
    expect(() => loadConfig(specs, { AUTHORIZE_URL: 'not a url' })).toThrow(/AUTHORIZE_URL="not a url"/);
  });
});
