import type { Request, Response } from 'express';

/**
 * How long the rest of a refused body is read and thrown away before the connection is closed:
 * long enough for the answer to reach a client that is still sending (closing a socket with
 * unread bytes resets it, and the answer can be lost with it), short enough that a 70 MB body
 * is not taken in.
 */
const DISCARD_MS = 2000;

/** An HTTP-level refusal of the agent endpoint: a JSON-RPC error with no id, as the MCP transport answers. */
export function sendJsonRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * Refuses a request whose body was not (or not wholly) read: answers at once, discards what the
 * client still sends for a moment, then closes the connection unless the body has ended.
 */
export function refuseUnread(req: Request, res: Response, status: number, message: string): void {
  res.once('finish', () => {
    if (req.complete) return;
    req.resume();
    const close = setTimeout(() => req.socket?.destroy(), DISCARD_MS).unref();
    const done = () => clearTimeout(close);
    req.once('end', done);
    req.once('close', done);
  });
  sendJsonRpcError(res, status, -32000, message);
}
