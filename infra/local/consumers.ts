/** The functions' event sources besides the gateway: SQS queues (pollers) and schedules (timers). */
import { randomUUID } from 'node:crypto';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { FunctionDecl } from '../wiring.ts';
import { LOCAL_ACCOUNT, LOCAL_REGION, type ProvisionedQueue } from './emulators.ts';
import type { FunctionHost } from './function-host.ts';
import type { Log } from './log.ts';
import { QueuePoller } from './poller.ts';

type Stops = Array<() => Promise<void> | void>;

/** A poller per queue function, as the event source mappings deliver SQS messages on AWS. */
export function startPollers(
  functions: Record<string, FunctionDecl>,
  hosts: Map<string, FunctionHost>,
  queues: Record<string, ProvisionedQueue>,
  sqs: SQSClient,
  pollWaitSeconds: number,
  log: Log,
  stops: Stops,
): void {
  for (const [name, decl] of Object.entries(functions)) {
    if (decl.trigger !== 'queue') continue;
    const queue = queues[decl.queue];
    if (!queue) throw new Error(`function ${name} reads queue "${decl.queue}", which the wiring does not declare`);
    const poller = new QueuePoller({
      sqs,
      queueName: decl.queue,
      queueUrl: queue.url,
      queueArn: queue.arn,
      batchSize: decl.batchSize,
      host: hosts.get(name)!,
      concurrency: hosts.get(name)!.concurrency,
      waitTimeSeconds: pollWaitSeconds,
      visibilityTimeoutSeconds: queue.visibilityTimeoutSeconds,
      log,
    });
    poller.start();
    stops.push(() => poller.stop());
  }
}

/** A timer per schedule function, invoking it with an EventBridge Scheduled Event (never two at once). */
export function startSchedules(
  functions: Record<string, FunctionDecl>,
  hosts: Map<string, FunctionHost>,
  scheduleSeconds: number | undefined,
  log: Log,
  stops: Stops,
): void {
  for (const [name, decl] of Object.entries(functions)) {
    if (decl.trigger !== 'schedule') continue;
    const periodMs = (scheduleSeconds ?? decl.everyMinutes * 60) * 1000;
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      const event = {
        version: '0',
        id: randomUUID(),
        'detail-type': 'Scheduled Event',
        source: 'aws.events',
        account: LOCAL_ACCOUNT,
        time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        region: LOCAL_REGION,
        resources: [`arn:aws:events:${LOCAL_REGION}:${LOCAL_ACCOUNT}:rule/vidbot-${name}-schedule`],
        detail: {},
      };
      hosts
        .get(name)!
        .invoke(event)
        .catch((error: Error) => log.warn('scheduled invocation failed', { function: name, error: error.message }))
        .finally(() => (running = false));
    }, periodMs);
    stops.push(() => clearInterval(timer));
    log.info('schedule started', { function: name, everySeconds: periodMs / 1000 });
  }
}
