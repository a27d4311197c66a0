import { BadRequestError } from '#commons/errors';
import { limits } from '#domain/limits';

/** The `limit` of a list operation: 1 to limits.maxPageSize, default limits.defaultPageSize. */
export function pageSize(query: Record<string, string>): number {
  if (query.limit === undefined) return limits.defaultPageSize;
  const limit = Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > limits.maxPageSize)
    throw new BadRequestError(`limit must be a whole number from 1 to ${limits.maxPageSize}.`, [{ path: 'limit', message: 'out of range' }]);
  return limit;
}
