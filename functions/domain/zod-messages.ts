/**
 * zod's default messages in the API's words. A schema's own message (`.max(n, 'must be …')`) always wins; this
 * only replaces zod's generic text ("Too big: expected string to have <=100 characters") for the checks that
 * name none, so every 400 reads the same way: "must be at most 100 characters", "is required".
 * Imported for its effect by the modules that declare request schemas.
 */
import { z } from 'zod';

const kindOf: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
};

function messageOf(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${kindOf[issue.expected] ?? issue.expected}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `must have at most ${issue.maximum} items`;
      return issue.inclusive === false ? `must be less than ${issue.maximum}` : `must be at most ${issue.maximum}`;
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
      if (issue.origin === 'array') return `must have at least ${issue.minimum} items`;
      // positive() is "more than 0": "at least 0" would let 0 through in the caller's reading.
      return issue.inclusive === false ? `must be more than ${issue.minimum}` : `must be at least ${issue.minimum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    default:
      return undefined;
  }
}

z.config({ customError: messageOf });
