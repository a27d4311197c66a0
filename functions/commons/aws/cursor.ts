import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { invalidCursor } from '#domain/errors';
import type { Page } from '#domain/ports';

/** Pagination cursors are DynamoDB's LastEvaluatedKey, opaque to callers (base64url JSON). */
export const encodeCursor = (key: Record<string, unknown> | undefined) =>
  key ? Buffer.from(JSON.stringify(key), 'utf8').toString('base64url') : undefined;

/** Longer than any key this service writes: a cursor is a few ids and a time. */
const MAX_CURSOR_CHARS = 1024;
const MAX_VALUE_CHARS = 256;

/**
 * A cursor back into the ExclusiveStartKey it was made from, or a 400 `invalid_cursor`: it must hold exactly the
 * listing's key attributes (`keys`: the table's and the index's), each a short string, and `pinned`
 * ones (the caller's tenant) as given, so a crafted or another listing's cursor never reaches DynamoDB.
 */
export function decodeCursor(
  cursor: string | undefined,
  pinned: Record<string, string>,
  keys: readonly string[],
): Record<string, unknown> | undefined {
  if (!cursor) return undefined;
  let value: unknown;
  try {
    value = cursor.length <= MAX_CURSOR_CHARS ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) : undefined;
  } catch {
    value = undefined;
  }
  const record = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  const valid =
    record !== undefined &&
    Object.keys(record).length === keys.length &&
    keys.every((k) => Object.hasOwn(record, k) && isKeyValue(record[k])) &&
    Object.entries(pinned).every(([k, v]) => record[k] === v);
  if (!valid) throw invalidCursor();
  return record;
}

/** Every key attribute of a listing is a string (ids, times as ISO text): a number would be a key of the wrong type. */
const isKeyValue = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= MAX_VALUE_CHARS;

/**
 * One page of an account's items in a table keyed by `tenantId` and `sortKey`, in sort-key order (`newestFirst`:
 * descending), with the cursor of the next page; `sortKeyPrefix` keeps to the items whose sort key starts so.
 */
export async function tenantPage<T>(
  client: DynamoDBDocumentClient,
  table: { tableName: string; sortKey: string; newestFirst?: boolean; sortKeyPrefix?: string },
  tenantId: string,
  options: { limit: number; cursor?: string },
): Promise<Page<T>> {
  const prefix = table.sortKeyPrefix;
  const result = await client.send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: prefix ? 'tenantId = :t AND begins_with(#sk, :prefix)' : 'tenantId = :t',
      ExpressionAttributeValues: { ':t': tenantId, ...(prefix && { ':prefix': prefix }) },
      ...(prefix && { ExpressionAttributeNames: { '#sk': table.sortKey } }),
      ...(table.newestFirst && { ScanIndexForward: false }),
      Limit: options.limit,
      ExclusiveStartKey: decodeCursor(options.cursor, { tenantId }, ['tenantId', table.sortKey]),
    }),
  );
  return { items: (result.Items ?? []) as T[], nextCursor: encodeCursor(result.LastEvaluatedKey) };
}
