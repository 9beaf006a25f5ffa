import { lookup } from 'node:dns/promises';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Turns a host name into its addresses; injected in tests to play DNS answers that point anywhere. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The operating system's resolver (what the http module would use), every address at once. */
export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });
