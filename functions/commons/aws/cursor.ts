import { InvalidRequest } from '#domain/errors';

/** Pagination cursors are DynamoDB's LastEvaluatedKey, opaque to callers (base64url JSON). */
export const encodeCursor = (key: Record<string, unknown> | undefined) =>
  key ? Buffer.from(JSON.stringify(key), 'utf8').toString('base64url') : undefined;

/** `expect` pins key attributes (the caller's tenant): a cursor from another listing is refused. */
export function decodeCursor(cursor: string | undefined, expect: Record<string, string> = {}): Record<string, unknown> | undefined {
  if (!cursor) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const valid =
      value && typeof value === 'object' && !Array.isArray(value) &&
      Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number') &&
      Object.entries(expect).every(([k, v]) => value[k] === v);
    if (valid) return value;
  } catch {
    // fall through
  }
  throw new InvalidRequest([{ path: 'cursor', message: 'invalid' }], 'The cursor is not valid; pass the next_cursor of a previous page.');
}
