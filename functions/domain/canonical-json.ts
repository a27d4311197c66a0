/** The value with every object's keys in sorted order (arrays keep theirs), so that equal data is written alike. */
export function withSortedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withSortedKeys) as T;
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, withSortedKeys((value as Record<string, unknown>)[key])]),
  ) as T;
}

/** JSON with object keys sorted at every level: equal field sets give equal text, whatever order they came in. */
export const canonicalJson = (value: unknown): string => JSON.stringify(withSortedKeys(value)) ?? 'null';
