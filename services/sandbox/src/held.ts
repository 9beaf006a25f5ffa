import type { ServerResponse } from 'node:http';

/**
 * Requests the sandbox deliberately never answers (timeout faults). They stay open until the
 * client gives up, or until reset/close drops their connections.
 */
export class HeldResponses {
  private readonly held = new Set<ServerResponse>();

  hold(res: ServerResponse): void {
    this.held.add(res);
    res.once('close', () => this.held.delete(res));
  }

  get size(): number {
    return this.held.size;
  }

  releaseAll(): void {
    for (const res of this.held) res.socket?.destroy();
    this.held.clear();
  }
}
