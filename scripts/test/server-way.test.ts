import { chooseServerWay, explainUnavailable, type ServerProbes } from '../launch/server-way';

const nothing: ServerProbes = { answers: false, named: false, privateKept: false, docker: false, installed: false };

test('when the configured or default server answers, then it is used, whatever else the machine has', () => {
  expect(chooseServerWay({ ...nothing, answers: true, docker: true, installed: true, privateKept: true })).toBe(
    'configured',
  );
  expect(chooseServerWay({ ...nothing, answers: true, named: true })).toBe('configured');
});

test('when a named server does not answer, then it is unreachable rather than replaced', () => {
  expect(chooseServerWay({ ...nothing, named: true, docker: true, installed: true })).toBe('unreachable');
});

test('when nothing answers and Docker works, then Docker brings the server up', () => {
  expect(chooseServerWay({ ...nothing, docker: true, installed: true })).toBe('docker');
});

test('when nothing answers and Docker does not work, then the installed server runs privately', () => {
  expect(chooseServerWay({ ...nothing, installed: true })).toBe('private');
});

test('when an earlier run kept a private server, then it is reused before Docker', () => {
  expect(chooseServerWay({ ...nothing, privateKept: true, docker: true, installed: true })).toBe('private');
  // its programs gone, the kept data cannot be served: Docker it is
  expect(chooseServerWay({ ...nothing, privateKept: true, docker: true })).toBe('docker');
});

test('when nothing answers, Docker does not work and the server is not installed, then it is missing', () => {
  expect(chooseServerWay(nothing)).toBe('missing');
});

test('when POSTBUS_SERVERS names one way, then only that way is taken', () => {
  expect(chooseServerWay({ ...nothing, answers: true, installed: true }, 'private')).toBe('private');
  expect(chooseServerWay({ ...nothing, answers: true, docker: false, installed: true }, 'docker')).toBe('missing');
  expect(chooseServerWay({ ...nothing, answers: true, docker: true }, 'docker')).toBe('docker');
  expect(chooseServerWay({ ...nothing, docker: true, installed: true }, 'configured')).toBe('unreachable');
  expect(chooseServerWay({ ...nothing, answers: true }, 'configured')).toBe('configured');
});

test('when both servers are missing, then one message gives the install commands for Debian and macOS', () => {
  const message = explainUnavailable([
    { kind: 'postgres', way: 'missing', url: 'postgres://postgres@127.0.0.1:5432/postbus' },
    { kind: 'rabbitmq', way: 'missing', url: 'amqp://guest:***@127.0.0.1:5672' },
  ]);
  expect(message).toContain('sudo apt-get install postgresql rabbitmq-server');
  expect(message).toContain('brew install postgresql@15 rabbitmq');
  expect(message).toContain('docker compose up -d postgres rabbitmq');
});

test('when only RabbitMQ is missing and DATABASE_URL does not answer, then both are explained, each with its own remedy', () => {
  const message = explainUnavailable([
    { kind: 'postgres', way: 'unreachable', url: 'postgres://db.example:5432/postbus' },
    { kind: 'rabbitmq', way: 'missing', url: 'amqp://guest:***@127.0.0.1:5672' },
  ])!;
  expect(message).toContain('PostgreSQL does not answer at postgres://db.example:5432/postbus (DATABASE_URL)');
  expect(message).toContain('sudo apt-get install rabbitmq-server\n');
  expect(message).toContain('brew install rabbitmq\n');
});

test('when every server can be had, then there is nothing to explain', () => {
  expect(
    explainUnavailable([
      { kind: 'postgres', way: 'private', url: 'postgres://postgres@127.0.0.1:5432/postbus' },
      { kind: 'rabbitmq', way: 'configured', url: 'amqp://guest:***@127.0.0.1:5672' },
    ]),
  ).toBeUndefined();
});
