/**
 * The one Tracer (Powertools, AWS X-Ray). On Lambda, with active tracing, each invocation is a `## handler`
 * subsegment annotated with ColdStart and Service, and every AWS SDK call a subsegment of it (the clients of
 * functions/commons/clients.ts are captured). Outside Lambda (tests, the local runtime, which also sets
 * POWERTOOLS_TRACE_ENABLED=false) the tracer is off and every call below does nothing.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './metric-names.ts';

const tracer = new Tracer({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME || SERVICE_NAME,
  // Outbound HTTP goes to callers' hosts (backgrounds, webhooks): no trace header is sent to strangers. How long
  // those took is in the log and in each video's delivery attempts.
  captureHTTPsRequests: false,
});

/** Wraps an SDK v3 client so that its calls appear in the trace. */
export const traced = <T>(client: T): T => tracer.captureAWSv3Client(client);

/**
 * Runs one invocation inside a subsegment of the function's segment. Responses are not recorded as metadata
 * (they hold presigned links and callers' data); errors are.
 */
export async function traceInvocation<T>(run: () => Promise<T>): Promise<T> {
  if (!tracer.isTracingEnabled()) return run();
  const segment = tracer.getSegment();
  const subsegment = segment?.addNewSubsegment(`## ${process.env._HANDLER ?? 'handler'}`);
  if (subsegment) tracer.setSegment(subsegment);
  tracer.annotateColdStart();
  tracer.addServiceNameAnnotation();
  try {
    return await run();
  } catch (error) {
    tracer.addErrorAsMetadata(error as Error);
    throw error;
  } finally {
    subsegment?.close();
    if (segment) tracer.setSegment(segment);
  }
}
