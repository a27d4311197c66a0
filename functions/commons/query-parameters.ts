import type { FieldProblem } from '#domain/errors';
import { limits } from '#domain/limits';

/** A query parameter as OpenAPI describes it; the document and the check below read the same list. */
interface QueryParameter {
  name: string;
  in: 'query';
  required?: false;
  description?: string;
  schema: Record<string, unknown>;
}

const PAGE: readonly QueryParameter[] = [
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: limits.maxPageSize, default: limits.defaultPageSize } },
  { name: 'cursor', in: 'query', schema: { type: 'string' } },
];

/**
 * The query parameters each route reads, by its "METHOD /resource" key; a route not listed takes none. Anything
 * else in a query string is a 400 naming it: a `?dry_run=true` that a route ignored made a real batch.
 */
const QUERY_PARAMETERS: Readonly<Record<string, readonly QueryParameter[]>> = {
  'GET /v1/video': PAGE,
  'GET /v1/clips': PAGE,
  'GET /v1/templates': PAGE,
  'GET /v1/batches': PAGE,
  'GET /v1/batches/{id}': PAGE,
  'GET /v1/inbox': PAGE,
  'GET /v1/voices': [
    {
      name: 'language',
      in: 'query',
      required: false,
      description: 'A BCP 47 tag: `es` lists es, es-419, es-US…; `es-MX` only es-MX.',
      schema: { type: 'string' },
    },
  ],
};

/** The query parameters of a route (for its OpenAPI operation). */
export const queryParameters = (route: string): QueryParameter[] => [...(QUERY_PARAMETERS[route] ?? [])];

/** Each query parameter the route does not read, named (never its value: a pasted key must not come back). */
export function unknownQueryProblems(route: string, query: Record<string, string>): FieldProblem[] {
  const known = new Set((QUERY_PARAMETERS[route] ?? []).map((p) => p.name));
  const takes = known.size ? `it takes ${[...known].join(', ')}` : 'it takes none; fields go in the body';
  return Object.keys(query)
    .filter((name) => !known.has(name))
    .slice(0, limits.maxBatchProblems)
    .map((name) => ({ path: `query.${name.slice(0, 64)}`, message: `is not a query parameter of ${route} (${takes})` }));
}
