/**
 * `npm run bench:api [-- --duration 10 --connections 10 --concurrency 2]`: latency and throughput of the API on
 * the local runtime, driven by autocannon. The runtime starts in a temporary data dir without queue consumers,
 * so rendering does not compete for the CPU (created videos stay queued). Each operation is warmed up first:
 * the figures are for warm execution environments and a cached authorizer decision, not cold starts.
 *
 * Operations: create (POST /v1/bot, a small valid JSON body), list bots (POST /v1/bot/), read a video
 * (GET /v1/video/{id}). The local gateway and functions share this machine with autocannon; the figures
 * compare changes of the code on one machine, they are not what API Gateway and Lambda would give.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startLocalRuntime } from '../../local/runtime.ts';
import { createKey, localTarget } from '../keys.ts';

interface Operation {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** The status a successful request gets. */
  status: number;
  /** Authorization values taken in turn, one per request (default: the dev key's). */
  authorizations?: string[];
}

export interface OperationFigures {
  name: string;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than the expected status, plus connection errors and timeouts. */
  failures: number;
}

/** Accounts the creates are spread over: enough that none reaches its 20 videos in progress in a run. */
const CREATE_ACCOUNTS = 400;

const CREATE_BODY = JSON.stringify({
  webhook: 'https://hooks.example.com/vidbot',
  create_video: false,
  clips: [{ bot_uid: 'bot_ava', text: 'Hello from the API benchmark.', clip_name: 'bench' }],
});

let turn = 0;

async function run(url: string, headers: Record<string, string>, op: Operation, seconds: number, connections: number): Promise<OperationFigures> {
  const result = await autocannon({
    url: `${url}${op.path}`,
    method: op.method,
    headers: op.body ? { ...headers, 'content-type': 'application/json' } : headers,
    body: op.body,
    // Each request takes the next key in turn, when the operation has several.
    requests: op.authorizations
      ? [
          {
            setupRequest: (request: any) => ({
              ...request,
              headers: { ...request.headers, Authorization: op.authorizations![turn++ % op.authorizations!.length] },
            }),
          },
        ]
      : undefined,
    connections,
    duration: seconds,
    // A request slower than the gateway's 29 s integration timeout is a failure anyway.
    timeout: 30,
  });
  const expected = result.statusCodeStats?.[String(op.status) as keyof typeof result.statusCodeStats] as { count: number } | undefined;
  const ok = expected?.count ?? 0;
  return {
    name: op.name,
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.requests.total - ok + result.errors + result.timeouts,
  };
}

export function formatTable(rows: OperationFigures[]): string {
  const header = ['operation', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'failures'];
  const lines = rows.map((r) => [
    r.name,
    String(r.requests),
    r.requestsPerSecond.toFixed(1),
    r.p50Ms.toFixed(1),
    r.p99Ms.toFixed(1),
    String(r.failures),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [row(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(row)].join('\n');
}

async function main() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '10' },
      concurrency: { type: 'string', default: '2' },
    },
  });
  const seconds = Number(values.duration);
  const connections = Number(values.connections);
  const concurrency = Number(values.concurrency);
  const dataDir = await mkdtemp(join(tmpdir(), 'vidbot-bench-api-'));
  const runtime = await startLocalRuntime({
    dataDir,
    port: 0,
    emulatorPorts: { dynamodb: 0, s3: 0, sqs: 0 },
    consumers: false,
    // The API's own speed, not the per-key throttle.
    requestRate: false,
    concurrency,
    logLevel: 'warn',
    functionLogLevel: 'WARN',
  });
  try {
    const headers = { Authorization: `Bearer ${runtime.devTenant!.apiKey}` };
    // Created videos stay queued (no consumers), so one account would soon hold thousands in progress: beyond
    // its limit, and each create would count them all. Creates are spread over many accounts instead, each
    // staying under the default limit, as many callers would; their keys are warmed in the authorizer's cache.
    const target = await localTarget(dataDir);
    const creators: string[] = [];
    for (let i = 0; i < CREATE_ACCOUNTS; i++) creators.push(`Bearer ${(await createKey(target, { name: `bench ${i}` })).apiKey}`);
    for (const authorization of creators) await fetch(`${runtime.url}/v1/account`, { headers: { Authorization: authorization } });
    const created = await fetch(`${runtime.url}/v1/bot`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: CREATE_BODY,
    });
    if (created.status !== 202) throw new Error(`the first create answered ${created.status}: ${await created.text()}`);
    const { video_id: videoId } = (await created.json()) as { video_id: string };

    const operations: Operation[] = [
      { name: 'POST /v1/bot (create)', method: 'POST', path: '/v1/bot', body: CREATE_BODY, status: 202, authorizations: creators },
      { name: 'POST /v1/bot/ (list bots)', method: 'POST', path: '/v1/bot/', status: 200 },
      { name: 'GET /v1/video/{id}', method: 'GET', path: `/v1/video/${videoId}`, status: 200 },
    ];
    console.log(
      `vidbot API benchmark: ${seconds} s per operation, ${connections} connections, ${concurrency} execution environments per function, ` +
        `${cpus().length} CPUs, node ${process.version}, queue consumers off`,
    );
    // Warm every execution environment of each function (cold starts compile TypeScript: seconds, not ms).
    for (const op of operations) await run(runtime.url, headers, op, 2, Math.max(connections, concurrency));

    const rows: OperationFigures[] = [];
    for (const op of operations) rows.push(await run(runtime.url, headers, op, seconds, connections));
    console.log(`\n${formatTable(rows)}\n`);
    if (rows.some((r) => r.failures > 0)) process.exitCode = 1;
    // autocannon leaves its last requests in flight when the time is up: let the gateway answer them first.
    await new Promise((resolve) => setTimeout(resolve, 2000));
  } finally {
    await runtime.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: Error) => {
    console.error(`bench:api: ${error.stack ?? error.message}`);
    process.exit(1);
  });
}
