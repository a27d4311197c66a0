/** What a Lambda authorizer returns (API Gateway's contract). */
export interface AuthorizerResult {
  principalId?: string;
  policyDocument?: { Version?: string; Statement?: PolicyStatement[] | PolicyStatement };
  context?: Record<string, string | number | boolean | null>;
  usageIdentifierKey?: string;
}

interface PolicyStatement {
  Effect?: string;
  Action?: string | string[];
  Resource?: string | string[];
}

/**
 * IAM wildcard match: `*` any run of characters, `?` any one character, case-sensitive.
 * @internal Exported for its tests.
 */
export function wildcardMatch(pattern: string, value: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
  return regex.test(value);
}

const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Action names are case-insensitive in IAM. */
const actionMatches = (action: string) => wildcardMatch(action.toLowerCase(), 'execute-api:invoke');

/**
 * API Gateway's decision for one method ARN: an explicit Deny wins, then an Allow; no matching statement
 * denies. Throws if the result has no usable policy (API Gateway answers 500 then).
 */
export function evaluatePolicy(result: AuthorizerResult, methodArn: string): 'Allow' | 'Deny' {
  if (!result || typeof result !== 'object' || !result.policyDocument || typeof result.principalId !== 'string') {
    throw new Error('authorizer result has no principalId or policyDocument');
  }
  let allowed = false;
  for (const statement of list(result.policyDocument.Statement)) {
    const matches = list(statement.Action).some(actionMatches) && list(statement.Resource).some((r) => wildcardMatch(r, methodArn));
    if (!matches) continue;
    if (statement.Effect === 'Deny') return 'Deny';
    if (statement.Effect === 'Allow') allowed = true;
  }
  return allowed ? 'Allow' : 'Deny';
}
