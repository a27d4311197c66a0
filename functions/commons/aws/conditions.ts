import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';

/** A conditional write refused by its condition: an expected outcome of the adapters' transitions, not an error. */
export const isConditionFailure = (error: unknown) =>
  error instanceof ConditionalCheckFailedException || (error as Error)?.name === 'ConditionalCheckFailedException';
