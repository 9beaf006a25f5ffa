import type http from 'node:http';

/**
 * Writes `chunk` to the answer again and again for as long as the client reads, heeding back-pressure,
 * so a client that stops reading leaves it waiting on 'drain'. Resolves with the bytes written once
 * the connection closes: how much the client let through before it hung up.
 */
export function answerWithoutEnd(res: http.ServerResponse, chunk: Buffer): Promise<number> {
  let sent = 0;
  let open = true;
  const closed = new Promise<number>((resolve) =>
    res.on('close', () => {
      open = false;
      resolve(sent);
    }),
  );
  const pump = () => {
    while (open) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  pump();
  return closed;
}
