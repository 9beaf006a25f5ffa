import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/** A weak ETag naming a version of a resource: a digest of the fields that make that version. */
export function etagOf(version: unknown): string {
  return etagOfJson(JSON.stringify(version));
}

/** etagOf for a version already written as JSON. */
export function etagOfJson(json: string): string {
  return `W/"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
}

/** If-None-Match lists the tag (or `*`): the caller's copy is current. Weak comparison, as RFC 9110 asks for GET. */
function matches(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === bare(tag));
}

/** Sets the ETag; answers 304 without a body and true when the caller already holds this version. */
export function answeredNotModified(req: Request, res: Response, version: unknown): boolean {
  return answeredNotModifiedByTag(req, res, etagOf(version));
}

/** answeredNotModified for a tag already made. */
export function answeredNotModifiedByTag(req: Request, res: Response, tag: string): boolean {
  res.setHeader('ETag', tag);
  if (!matches(req.header('if-none-match'), tag)) return false;
  res.status(304).end();
  return true;
}
