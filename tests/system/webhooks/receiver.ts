import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  contentType: string;
  body: string;
  json: any;
}

/** A local endpoint that records what it receives and answers `status` (a number or a function of the request count). */
export class Receiver {
  readonly received: Received[] = [];
  status: number | ((n: number) => number) = 200;
  private server?: Server;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async listen(port = 0): Promise<this> {
    this.server = createServer((req, res) => void this.receive(req, res));
    await new Promise<void>((resolve, reject) => this.server!.once('error', reject).listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    this.received.push({
      id: String(req.headers['webhook-id']),
      timestamp: String(req.headers['webhook-timestamp']),
      signature: String(req.headers['webhook-signature']),
      contentType: String(req.headers['content-type']),
      body,
      json: JSON.parse(body),
    });
    const status = typeof this.status === 'function' ? this.status(this.received.length) : this.status;
    res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server!.close(resolve));
    this.server = undefined;
  }

  headersOf(r: Received) {
    return { id: r.id, timestamp: r.timestamp, signature: r.signature };
  }
}

/** The receivers a test file opened, all closed after it. */
export class Receivers {
  private readonly opened: Receiver[] = [];

  async listen(port = 0): Promise<Receiver> {
    const receiver = await new Receiver().listen(port);
    this.opened.push(receiver);
    return receiver;
  }

  async close(): Promise<void> {
    for (const receiver of this.opened) await receiver.close();
  }
}
