/** The environment each function is given: exactly the resources its declaration names. */
import { envNames, type QueueName, type TableName } from '#commons/env-names';
import type { FunctionDecl, ResourceNames } from './declarations.ts';
import { queues } from './resources.ts';

/**
 * The speech engine of the built-in bots: Amazon Polly's neural voices on AWS; espeak-ng locally, where there is
 * no AWS (it is also every deployment's offline engine: its voices are always listed). To deploy without Polly,
 * set `cloud` to 'espeak'.
 * @internal Exported for its tests.
 */
export const speechEngines: Record<'cloud' | 'local', 'espeak' | 'polly'> = { cloud: 'polly', local: 'espeak' };

/**
 * A queue's visibility timeout as the local runtime creates it: the declared one, optionally scaled down for tests
 * (at least a second: SQS counts whole seconds). Scale 1 is the declared timeout, as on AWS.
 */
export const scaledVisibility = (seconds: number, scale: number) => Math.max(1, Math.round(seconds * scale));

/**
 * The environment a function gets: exactly the resources its declaration names, under the variable names of
 * functions/commons/env-names.ts. Used by the stack for Lambda and by the local runtime for its workers.
 * `speechEngine` defaults to the mode's (speechEngines); the local runtime gives 'espeak' in either mode, having
 * no Polly; and `visibilityScale`, the factor its queues' visibility timeouts are scaled by.
 */
export function environmentFor(
  fn: FunctionDecl,
  names: ResourceNames,
  mode: 'cloud' | 'local',
  speechEngine: 'espeak' | 'polly' = speechEngines[mode],
  visibilityScale = 1,
): Record<string, string> {
  const env: Record<string, string> = { [envNames.mode]: mode, ...(fn.environment ?? {}) };
  for (const table of Object.keys(fn.tables ?? {}) as TableName[]) env[envNames.table(table)] = names.table(table);
  for (const queue of Object.keys(fn.queues ?? {}) as QueueName[]) env[envNames.queueUrl(queue)] = names.queueUrl(queue);
  for (const queue of fn.deadLetters ?? []) env[envNames.deadLetterQueueUrl(queue)] = names.deadLetterQueueUrl(queue);
  if (fn.bucket) env[envNames.bucket] = names.bucket;
  if (fn.voices) env[envNames.speechEngine] = speechEngine;
  // A consumer fails a job for good on its queue's last receive, names its queue in its metrics, and schedules a
  // retry no later than the queue's visibility timeout would bring it back.
  if (fn.trigger === 'queue') {
    env[envNames.maxReceiveCount] = String(queues[fn.queue].maxReceiveCount);
    env[envNames.consumedQueue] = fn.queue;
    env[envNames.consumedQueueVisibilitySeconds] = String(scaledVisibility(queues[fn.queue].visibilityTimeoutSeconds, visibilityScale));
  }
  return env;
}
