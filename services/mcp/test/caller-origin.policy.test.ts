import { readConfig } from '../src/config';
import { buildCallerOriginPolicy, isAllowedHost, isAllowedOrigin } from '../src/entry-points/http/caller-origin.policy';

const production = buildCallerOriginPolicy({
  publicBaseUrl: 'https://postbus.example.com',
  extraHosts: ['mcp.postbus.example.com'],
  extraOrigins: ['https://app.example.com'],
  production: true,
});
const development = buildCallerOriginPolicy({
  publicBaseUrl: 'http://localhost:3000',
  extraHosts: [],
  extraOrigins: [],
  production: false,
});

describe('which hosts the agent endpoints answer', () => {
  test('when the Host is the public base URL or a configured name, with or without a port, then it is allowed', () => {
    for (const host of [
      'postbus.example.com',
      'POSTBUS.example.com:443',
      'mcp.postbus.example.com',
      'postbus.example.com.',
    ])
      expect([host, isAllowedHost(production, host)]).toEqual([host, true]);
  });

  test('when the Host is another name, empty, absent or not a host at all, then it is refused', () => {
    for (const host of [
      'evil.example',
      'postbus.example.com.evil.example',
      'evil.example@postbus.example.com',
      'postbus.example.com/x',
      '',
      ' ',
      undefined,
    ]) {
      expect([host, isAllowedHost(production, host)]).toEqual([host, false]);
    }
  });

  test('when the Host is a loopback name, then only outside production is it allowed, on any port', () => {
    for (const host of ['localhost:3003', '127.0.0.1:49152', '[::1]:3000', 'localhost']) {
      expect([host, isAllowedHost(development, host), isAllowedHost(production, host)]).toEqual([host, true, false]);
    }
  });
});

describe('which browser origins may call them', () => {
  test('when the Origin is the public base URL or a configured origin, then it is allowed', () => {
    expect(isAllowedOrigin(production, 'https://postbus.example.com')).toBe(true);
    expect(isAllowedOrigin(production, 'https://app.example.com')).toBe(true);
  });

  test('when the Origin is another site, another scheme or port of ours, null, or not an origin, then it is refused', () => {
    for (const origin of [
      'http://evil.example',
      'http://postbus.example.com',
      'https://postbus.example.com:8443',
      'null',
      'file://',
      'https://postbus.example.com/path',
      'HTTPS://POSTBUS.EXAMPLE.COM',
      '',
    ]) {
      expect([origin, isAllowedOrigin(production, origin)]).toEqual([origin, false]);
    }
  });

  test('when the Origin is a loopback page, then only outside production is it allowed, on any port', () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080']) {
      expect([origin, isAllowedOrigin(development, origin), isAllowedOrigin(production, origin)]).toEqual([
        origin,
        true,
        false,
      ]);
    }
  });
});

describe('the configuration of allowed hosts and origins', () => {
  test('when names and origins are listed, then they are normalised (lower case, no port for hosts, URL origin for origins)', () => {
    const config = readConfig({
      MCP_ALLOWED_HOSTS: 'MCP.example.com:443, other.example',
      MCP_ALLOWED_ORIGINS: 'https://App.example.com',
    });
    expect(config.MCP_ALLOWED_HOSTS).toEqual(['mcp.example.com', 'other.example']);
    expect(config.MCP_ALLOWED_ORIGINS).toEqual(['https://app.example.com']);
    expect(readConfig({}).MCP_ALLOWED_HOSTS).toEqual([]);
  });

  test('when an entry is not a host name or an http(s) origin, then the service refuses to start, naming it', () => {
    expect(() => readConfig({ MCP_ALLOWED_HOSTS: 'https://mcp.example.com' })).toThrow(/MCP_ALLOWED_HOSTS/);
    expect(() => readConfig({ MCP_ALLOWED_ORIGINS: 'app.example.com' })).toThrow(/MCP_ALLOWED_ORIGINS/);
    expect(() => readConfig({ MCP_ALLOWED_ORIGINS: 'https://app.example.com/path' })).toThrow(/MCP_ALLOWED_ORIGINS/);
    expect(() => readConfig({ MCP_ALLOWED_ORIGINS: '*' })).toThrow(/MCP_ALLOWED_ORIGINS/);
  });
});
