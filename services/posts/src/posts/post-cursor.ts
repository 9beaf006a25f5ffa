import { AppError } from '@postbus/contracts';

/** An opaque page cursor: the last post of the page, base64url-encoded. */
export function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ v: 1, after: lastId })).toString('base64url');
}

export function decodeCursor(cursor: string): string {
  try {
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { v?: number; after?: unknown };
    if (decoded.v === 1 && typeof decoded.after === 'string' && /^pst_\w+$/.test(decoded.after)) return decoded.after;
  } catch {
    /* answered below */
  }
  throw new AppError(
    'validation_error',
    'cursor is not a cursor this API gave out; pass nextCursor of the previous page as is.',
  );
}
