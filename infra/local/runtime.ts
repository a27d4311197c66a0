import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { envNames } from '#commons/env-names';
import type { FunctionDecl, QueueDecl, ResourceNames, TableDecl } from '../wiring.ts';
import * as wiring from '../wiring.ts';
import { startPollers, startSchedules } from './consumers.ts';
import { type LocalCredentials, prepareDataDir, writePrivateFile } from './data-dir.ts';
import {
  type EmulatorPorts,
  type Emulators,
  type Endpoints,
  ensureQueues,
  ensureTables,
  LOCAL_REGION,
  type ProvisionedQueue,
  startEmulators,
} from './emulators.ts';
import { FunctionHost, type FunctionOutput } from './function-host.ts';
import { createGateway } from './gateway.ts';
import { createLog, type Log, type LogLevel } from './log.ts';
import { allowFile } from './loopback.ts';
import { requeueUnfinishedWork } from './recover.ts';
import { buildResources } from './routing.ts';
import { type DevTenant, seedBots, seedDevTenant } from './seed.ts';
import { ensurePortFree, lockDataDir, portInUse } from './startup-checks.ts';

/** @internal Exported for its tests. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface LocalRuntimeOptions {
  /** Repository root: function entries and bot artwork are resolved from here. @default the repo of this file */
  root?: string;
  /**
   * Start one execution environment of each function a video passes through (WARM_FUNCTIONS) before the runtime is ready,
   * as Lambda's provisioned concurrency does, the render with its warm-up clip: the first video after `npm start` waits for
   * no cold start. `npm start` and the bench turn it on; tests, which start many runtimes, leave it off. @default false
   */
  prewarm?: boolean;
  /** Where DynamoDB, S3 and the dev tenant persist. @default `<root>/.local` */
  dataDir?: string;
  /** Gateway port; 0 picks a free one. @default 3000 */
  port?: number;
  /** Emulator ports; 0 picks a free one. @default the data dir's remembered ports, else free ones */
  emulatorPorts?: EmulatorPorts;
  /** Replaces the wiring's functions (tests run fixture handlers). Tables and queues always come from the wiring. */
  functions?: Record<string, FunctionDecl>;
  /** API key to seed for the dev tenant. @default the one from the previous start, else a new one */
  devApiKey?: string;
  /** Webhook signing secret (whsec_...) of the dev key. @default the previous one, else a new one */
  devWebhookSecret?: string;
  /** Multiplies every queue's visibility timeout (min 1 s), for fast retry tests. @default 1 */
  visibilityScale?: number;
  /** Runs schedule functions every this many seconds instead of their declared minutes. */
  scheduleSeconds?: number;
  /** Execution environments per function (queue functions: also capped by their maxConcurrency). @default 2 */
  concurrency?: number;
  /** SQS long-poll wait of the pollers. @default 5 */
  pollWaitSeconds?: number;
  /** @default wiring.api.authorizer.cacheTtlSeconds, as the stack deploys it */
  authorizerCacheTtlSeconds?: number;
  /**
   * The authorizer's event type. @default wiring.api.authorizer.type (REQUEST, as the stack deploys it)
   */
  authorizerType?: 'REQUEST' | 'TOKEN';
  /** @default wiring.api.binaryMediaTypes, as the stack deploys them */
  binaryMediaTypes?: string[];
  /** @default 10 MiB, API Gateway's payload limit */
  maxBodyBytes?: number;
  /**
   * Each API key's request rate (the usage plan's throttle); false turns the throttle off (load tests,
   * benchmarks) while authorised routes still require the authorizer's usageIdentifierKey.
   * @default wiring.api.usagePlan, as the stack deploys it
   */
  requestRate?: { rateLimit: number; burstLimit: number } | false;
  /** Seed the bot catalog and the dev tenant. @default true */
  seed?: boolean;
  /** Re-enqueue unfinished videos' work after a restart (queues are in memory). @default true */
  requeueUnfinished?: boolean;
  /**
   * Start the queue pollers and schedules. false serves the API alone (messages stay queued): for benchmarks of
   * the API that rendering would distort. @default true
   */
  consumers?: boolean;
  /**
   * The functions' VIDBOT_MODE. 'local' lets backgrounds and webhooks use loopback addresses; 'cloud' applies
   * the address guard exactly as on AWS (tests of the guard through the API). @default 'local'
   */
  mode?: 'local' | 'cloud';
  /**
   * Loopback ports the functions may reach besides the gateway (a developer's webhook receiver: `npm start` reads
   * VIDBOT_LOOPBACK_ALLOW). Servers of the same process allow themselves with allowLoopbackPort. @default []
   */
  allowLoopbackPorts?: number[];
  /** Functions run from bundles built on their first cold start (./function-bundles.ts), not tsx. @default false */
  bundledFunctions?: boolean;
  /** Extra environment for every function (test knobs such as VIDBOT_DELIVERY_DELAY_SCALE). */
  functionEnvironment?: Record<string, string>;
  /** POWERTOOLS_LOG_LEVEL for the functions. @default process.env.POWERTOOLS_LOG_LEVEL ?? 'INFO' */
  functionLogLevel?: string;
  /**
   * Receives every line the functions write: their log lines and their metrics (one EMF JSON document per line,
   * as CloudWatch Logs receives them). @default written to this process's stdout and stderr
   */
  functionOutput?: FunctionOutput;
  logLevel?: LogLevel;
  log?: Log;
}

export interface LocalRuntime {
  /** Base URL of the gateway, e.g. http://127.0.0.1:3000 */
  url: string;
  port: number;
  dataDir: string;
  endpoints: Endpoints;
  /** What the emulators accept: clients outside the runtime (tests, scripts) sign with these. */
  credentials: LocalCredentials;
  /** Every TCP port this runtime listens on: the gateway's and the emulators'. */
  ownPorts: number[];
  names: ResourceNames;
  queues: Record<string, ProvisionedQueue>;
  /** Undefined when seeding is off. */
  devTenant?: DevTenant;
  functions: Map<string, FunctionHost>;
  /** Invokes a function directly, as `aws lambda invoke` would. */
  invoke(functionName: string, event: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

/**
 * Physical names of the local resources.
 * @internal Exported for its tests.
 */
export const localNames = {
  table: (name: string) => `vidbot-${name}`,
  queue: (name: string) => `vidbot-${name}`,
  bucket: 'vidbot-local',
};

type Stops = Array<() => Promise<void> | void>;

/**
 * The functions a video passes through, from the create request to the signed webhook: with the fetcher, which
 * downloads a background given by URL (most videos have one), and `videos`, which answers the status polls a caller
 * makes while it renders. A function started cold costs seconds of CPU (its TypeScript compiled and its modules
 * loaded): in the middle of the first video, it would be that video's cost.
 * @internal Exported for its tests.
 */
export const WARM_FUNCTIONS = ['authorizer', 'createVideo', 'videos', 'fetcher', 'render', 'assemble', 'notifier'] as const;

/** Runs the whole service on this machine: emulators, seeded data, functions in workers, gateway, pollers, schedules. */
export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const root = options.root ?? REPO_ROOT;
  const dataDir = resolve(options.dataDir ?? resolve(root, '.local'));
  const gatewayPort = options.port ?? 3000;
  const log = options.log ?? createLog(options.logLevel ?? 'info');
  const functions = options.functions ?? (wiring.functions as Record<string, FunctionDecl>);
  const stops: Stops = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (error) {
        log.warn('error while stopping', { error: (error as Error).message });
      }
    }
  };

  try {
    // Registered first, released last: nothing of this start touches the data dir before it holds the lock.
    const lock = lockDataDir(dataDir);
    stops.push(() => lock.release());
    await ensurePortFree(gatewayPort);
    await prepareDataDir(dataDir);
    log.info('starting vidbot local runtime', { dataDir });
    const { emulators, loopback } = await startEmulatorsAndLoopback(dataDir, gatewayPort, options, log, stops);

    const { queues, names } = await provisionResources(emulators, options, log);
    const devTenant = await seedAndRecover(emulators, names, queues, { root, dataDir, options, log });
    const hosts = startFunctionHosts(functions, functionEnvironment(emulators, dataDir, options), names, { root, options, log }, stops);
    const consumers = options.consumers ?? true;
    if (!consumers) log.info('queue consumers and schedules are off: messages stay queued');
    else {
      startPollers(functions, hosts, queues, emulators.sqs, options.pollWaitSeconds ?? 5, log, stops);
      startSchedules(functions, hosts, options.scheduleSeconds, log, stops);
    }

    if (options.prewarm) await prewarm(hosts, log);

    const port = await serveGateway(createLocalGateway(functions, hosts, options, log), gatewayPort, stops);
    loopback.allow(port);
    const url = `http://127.0.0.1:${port}`;
    // Tools that act on the running service (npm run keys) find its emulators here; removed on stop.
    const infoFile = await writeRuntimeInfo(dataDir, url, emulators, names);
    stops.unshift(() => rm(infoFile, { force: true }));
    log.info('vidbot local runtime ready', { url });

    return {
      url,
      port,
      dataDir,
      endpoints: emulators.endpoints,
      credentials: emulators.credentials,
      ownPorts: [port, ...Object.values(emulators.ports)],
      names,
      queues,
      devTenant,
      functions: hosts,
      invoke: (functionName, event) => {
        const host = hosts.get(functionName);
        if (!host) throw new Error(`no function named ${functionName}`);
        return host.invoke(event);
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * The emulators, and the loopback ports the functions may reach: the ones given, and the gateway's. A port asked
 * for is in from the start (it was free a moment ago): work re-queued after a restart may deliver to the inbox before
 * the gateway listens, and a webhook refused as loopback is not retried. A port picked by the system goes in once it
 * listens.
 */
async function startEmulatorsAndLoopback(dataDir: string, gatewayPort: number, options: LocalRuntimeOptions, log: Log, stops: Stops) {
  const emulators = await startEmulators(dataDir, options.emulatorPorts ?? {}, localNames.bucket, log);
  stops.push(() => emulators.stop());
  const loopback = allowFile(resolve(dataDir, 'loopback-allow.json'), [...(options.allowLoopbackPorts ?? []), ...(gatewayPort ? [gatewayPort] : [])]);
  stops.push(() => loopback.forget());
  log.info('emulators started', {
    ...emulators.endpoints,
    note: 'DynamoDB (dynalite/LevelDB) and S3 (s3rver) persist in the data dir; SQS (fauxqs) is in memory: queued messages are lost on restart, and unfinished videos are re-enqueued from the videos table',
  });
  return { emulators, loopback };
}

/** Starts the functions on a video's path before the first request needs them. */
async function prewarm(hosts: Map<string, FunctionHost>, log: Log): Promise<void> {
  const started = Date.now();
  await Promise.all(WARM_FUNCTIONS.map((name) => hosts.get(name)?.prewarm()));
  log.info('functions on the video path started', { functions: WARM_FUNCTIONS.join(', '), ms: Date.now() - started });
}

/** The gateway listening on `gatewayPort` (0: one the system picks); its port. Stopped first: registered last. */
async function serveGateway(gateway: ReturnType<typeof createLocalGateway>, gatewayPort: number, stops: Stops): Promise<number> {
  const port = await gateway.listen(gatewayPort).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EADDRINUSE' ? portInUse(gatewayPort) : error;
  });
  stops.push(() => gateway.close());
  return port;
}

/** The wiring's tables and queues in the emulators, and the names the functions find them by. */
async function provisionResources(emulators: Emulators, options: LocalRuntimeOptions, log: Log) {
  const tables = wiring.tables as Record<string, TableDecl>;
  const queueDecls = wiring.queues as Record<string, QueueDecl>;
  await ensureTables(emulators.dynamo, tables, localNames.table);
  const queues = await ensureQueues(emulators.sqs, queueDecls, localNames.queue, options.visibilityScale ?? 1, log);
  const names: ResourceNames = {
    table: (name) => localNames.table(name),
    queueUrl: (name) => queues[name]!.url,
    deadLetterQueueUrl: (name) => queues[name]!.dlqUrl,
    bucket: localNames.bucket,
  };
  log.info('resources ready', {
    tables: Object.keys(tables).map(localNames.table),
    queues: Object.keys(queues).map(localNames.queue),
    bucket: localNames.bucket,
  });
  return { queues, names };
}

/** The bot catalog and the dev tenant seeded (unless seeding is off); unfinished work re-enqueued after a restart. */
async function seedAndRecover(
  emulators: Emulators,
  names: ResourceNames,
  queues: Record<string, ProvisionedQueue>,
  context: { root: string; dataDir: string; options: LocalRuntimeOptions; log: Log },
): Promise<DevTenant | undefined> {
  const { root, dataDir, options, log } = context;
  const doc = DynamoDBDocumentClient.from(emulators.dynamo, { marshallOptions: { removeUndefinedValues: true } });
  let devTenant: DevTenant | undefined;
  if (options.seed ?? true) {
    await seedBots({ doc, s3: emulators.s3, botsTable: names.table('bots'), bucket: names.bucket, root, log });
    devTenant = await seedDevTenant({
      doc,
      accountsTable: names.table('accounts'),
      keysTable: names.table('keys'),
      dataDir,
      apiKey: options.devApiKey,
      webhookSecret: options.devWebhookSecret,
      log,
    });
  }
  if (options.requeueUnfinished ?? true) {
    await requeueUnfinishedWork({
      doc,
      sqs: emulators.sqs,
      videosTable: names.table('videos'),
      accountBotsTable: names.table('accountBots'),
      batchesTable: names.table('batches'),
      queueUrls: Object.fromEntries(Object.entries(queues).map(([name, queue]) => [name, queue?.url])),
      log,
    });
  }
  return devTenant;
}

/** What every function's environment holds: the emulators' endpoints and credentials, the SDK's and Powertools' settings. */
function functionEnvironment(emulators: Emulators, dataDir: string, options: LocalRuntimeOptions): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    TMPDIR: process.env.TMPDIR ?? '/tmp',
    LANG: 'en_US.UTF-8',
    TZ: 'UTC',
    AWS_REGION: LOCAL_REGION,
    AWS_DEFAULT_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: emulators.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: emulators.credentials.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: emulators.endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: emulators.endpoints.s3,
    AWS_ENDPOINT_URL_SQS: emulators.endpoints.sqs,
    [envNames.s3ForcePathStyle]: 'true',
    [envNames.loopbackAllowFile]: resolve(dataDir, 'loopback-allow.json'),
    // The SDK's default flexible checksums send streamed uploads as aws-chunked with a trailer, which s3rver
    // stores verbatim (chunk framing inside the object). Checksums only where an API requires them.
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    // Lambda runs Node 22; on a Node 20 laptop the SDK would warn in every worker that 2027 releases need 22.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    [envNames.serviceName]: 'vidbot',
    [envNames.logLevel]: options.functionLogLevel ?? process.env[envNames.logLevel] ?? 'INFO',
    // No X-Ray daemon here: the tracer stays off (it also turns itself off without AWS_EXECUTION_ENV). Metrics
    // stay on: their EMF documents are lines of the function's output, as in CloudWatch Logs.
    POWERTOOLS_TRACE_ENABLED: 'false',
    POWERTOOLS_METRICS_DISABLED: 'false',
    [envNames.renderWarmUp]: options.prewarm ? 'on' : 'off',
  };
}

/** One FunctionHost (its workers) per function, with its environment as the stack gives it. */
function startFunctionHosts(
  functions: Record<string, FunctionDecl>,
  baseEnv: Record<string, string>,
  names: ResourceNames,
  context: { root: string; options: LocalRuntimeOptions; log: Log },
  stops: Stops,
): Map<string, FunctionHost> {
  const { root, options, log } = context;
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const hosts = new Map<string, FunctionHost>();
  const shared = { root, log, functionPrefix: 'vidbot', output: options.functionOutput, bundled: options.bundledFunctions };
  for (const [name, decl] of Object.entries(functions)) {
    // Its cloud mode guards addresses as on AWS, but there is no Polly here: espeak-ng speaks in either mode.
    const own = wiring.environmentFor(decl, names, options.mode ?? 'local', 'espeak', options.visibilityScale);
    const env = { ...baseEnv, ...own, ...options.functionEnvironment };
    const perFunction = decl.trigger === 'queue' ? Math.min(decl.localConcurrency ?? concurrency, decl.maxConcurrency ?? Infinity) : concurrency;
    const host = new FunctionHost(name, decl, env, { ...shared, concurrency: perFunction });
    if (!host.entryExists) log.warn('function entry not found; its invocations will fail until it exists', { function: name, entry: decl.entry });
    hosts.set(name, host);
    stops.push(() => host.stop());
  }
  return hosts;
}

/** The gateway as the stack configures API Gateway, unless the options say otherwise (tests, benchmarks). */
function createLocalGateway(functions: Record<string, FunctionDecl>, hosts: Map<string, FunctionHost>, options: LocalRuntimeOptions, log: Log) {
  const authorizerName = Object.entries(functions).find(([, d]) => d.trigger === 'authorizer')?.[0];
  return createGateway({
    resources: buildResources(functions),
    functions: hosts,
    authorizer: authorizerName ? hosts.get(authorizerName) : undefined,
    authorizerType: options.authorizerType ?? wiring.api.authorizer.type,
    authorizerCacheTtlSeconds: options.authorizerCacheTtlSeconds ?? wiring.api.authorizer.cacheTtlSeconds,
    binaryMediaTypes: options.binaryMediaTypes ?? [...wiring.api.binaryMediaTypes],
    maxBodyBytes: options.maxBodyBytes ?? 10 * 1024 * 1024,
    stage: wiring.api.stageName,
    apiId: 'local',
    usagePlan: options.requestRate ?? { ...wiring.api.usagePlan },
    log,
  });
}

/** runtime.json in the data dir: the gateway's URL and the emulators' endpoints, for tools that act on the running service. */
async function writeRuntimeInfo(dataDir: string, url: string, emulators: Emulators, names: ResourceNames): Promise<string> {
  const infoFile = resolve(dataDir, 'runtime.json');
  const tables = wiring.tables as Record<string, TableDecl>;
  await writePrivateFile(
    infoFile,
    `${JSON.stringify({ url, pid: process.pid, endpoints: emulators.endpoints, tables: Object.fromEntries(Object.keys(tables).map((t) => [t, names.table(t as never)])), bucket: names.bucket }, null, 2)}\n`,
  );
  return infoFile;
}
