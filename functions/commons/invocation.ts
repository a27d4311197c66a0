/**
 * What every invocation of every function gets, written once (httpHandler, queueConsumer, the authorizer and the
 * sweeper run through it): the Lambda context on each log line, a trace subsegment, and the metrics it recorded
 * flushed as one EMF document when it ends, also when it throws.
 */
import type { Context } from 'aws-lambda';
import { logger } from './logger.ts';
import { flushMetrics } from './metrics.ts';
import { traceInvocation } from './tracer.ts';

export async function runInvocation<T>(context: Context | undefined, run: () => Promise<T>): Promise<T> {
  // Tests may call a handler with no context.
  if (context) logger.addContext(context);
  try {
    return await traceInvocation(run);
  } finally {
    flushMetrics();
  }
}

/** A handler run through {@link runInvocation}. */
export const observed =
  <E, R>(handler: (event: E, context: Context) => Promise<R>) =>
  (event: E, context: Context): Promise<R> =>
    runInvocation(context, () => handler(event, context));
