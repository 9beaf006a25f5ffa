import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { AppError, BULK_ROWS_MAX, type Post } from '@postbus/contracts';

/**
 * The CSV columns of a post, for import (POST /api/v1/posts/bulk) and export
 * (GET /api/v1/posts/export): an export is a valid import. Empty cells are absent fields.
 */
export const POST_CSV_COLUMNS = [
  'platforms',
  'profileIds',
  'caption',
  'title',
  'mediaUrls',
  'mediaId',
  'scheduledTime',
  'externalId',
  'category',
  'tiktok.privacyLevel',
  'youtube.privacyStatus',
] as const;

/** Longest CSV record in characters: a full caption with room for the other columns. */
const RECORD_MAX_CHARS = 64 * 1024;

const listOf = (cell: string, separator: RegExp) =>
  cell
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean);

/** One CSV record → the post payload a JSON row would carry. */
export function payloadOfRecord(r: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const set = (key: string, value: unknown) => {
    if (value !== '' && value !== undefined) body[key] = value;
  };
  set('platforms', r.platforms === undefined ? undefined : listOf(r.platforms, /[,;]/));
  if (r.profileIds) set('profileIds', listOf(r.profileIds, /[,;\s]+/));
  set('caption', r.caption);
  set('title', r.title);
  if (r.mediaUrls) set('mediaUrls', listOf(r.mediaUrls, /\s+/));
  set('mediaId', r.mediaId);
  set('scheduledTime', r.scheduledTime);
  set('externalId', r.externalId);
  set('category', r.category);
  const meta: Record<string, Record<string, string>> = {};
  if (r['tiktok.privacyLevel']) meta.tiktok = { privacyLevel: r['tiktok.privacyLevel'] };
  if (r['youtube.privacyStatus']) meta.youtube = { privacyStatus: r['youtube.privacyStatus'] };
  if (Object.keys(meta).length) body.platformMeta = meta;
  return body;
}

/**
 * Parses a bounded CSV body (the gateway's body limit applies) record by record with csv-parse's
 * streaming parser, and stops as soon as it holds more rows than a bulk create accepts.
 */
export function parsePostCsv(text: string): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const rows: Record<string, unknown>[] = [];
    const refuse = (message: string) => reject(new AppError('validation_error', message));
    const parser = parse({
      columns: headerOf,
      bom: true,
      trim: true,
      skip_empty_lines: true,
      max_record_size: RECORD_MAX_CHARS,
      relax_column_count: false,
    });
    parser.on('readable', () => {
      let record: Record<string, string> | null;
      while ((record = parser.read() as Record<string, string> | null) !== null) {
        rows.push(payloadOfRecord(record));
        if (rows.length > BULK_ROWS_MAX) {
          parser.destroy();
          return refuse(`A bulk create holds at most ${BULK_ROWS_MAX} rows.`);
        }
      }
    });
    parser.on('error', (err: Error & { code?: string }) => refuse(`The CSV could not be read: ${err.message}`));
    parser.on('end', () => resolve(rows));
    parser.end(text);
  });
}

/** The header must name known columns only, each once; unknown ones would be silently lost. */
function headerOf(header: string[]): string[] {
  const known = new Set<string>(POST_CSV_COLUMNS);
  const unknown = header.filter((h) => !known.has(h));
  if (unknown.length)
    throw new Error(
      `unknown column(s) ${unknown.map((h) => JSON.stringify(h)).join(', ')}; the columns are ${POST_CSV_COLUMNS.join(', ')}.`,
    );
  if (new Set(header).size !== header.length) throw new Error('a column is named twice.');
  return header;
}

/** Posts → CSV in the import's columns. */
export function postsToCsv(posts: Post[]): string {
  const meta = (p: Post, platform: string, key: string) =>
    ((p.platformMeta?.[platform] as Record<string, unknown> | undefined)?.[key] as string | undefined) ?? '';
  return stringify(
    posts.map((p) => [
      p.platforms.join(','),
      p.profileIds.join(','),
      p.caption,
      p.title ?? '',
      p.mediaUrls.join(' '),
      '',
      p.scheduledTime ?? '',
      p.externalId ?? '',
      p.category ?? '',
      meta(p, 'tiktok', 'privacyLevel'),
      meta(p, 'youtube', 'privacyStatus'),
    ]),
    { header: true, columns: [...POST_CSV_COLUMNS] },
  );
}
