/**
 * `npm start`: the whole service on this machine, no AWS account needed. See infra/local/README.md.
 */
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { functionOutputToFile, type LogLevel } from './log.ts';
import { parseLoopbackPorts } from './loopback.ts';
import { type LocalRuntimeOptions, REPO_ROOT, startLocalRuntime } from './runtime.ts';

const number = (name: string): number | undefined => {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative number, got "${value}"`);
  return parsed;
};

/** The runtime's options from the environment (documented in infra/local/README.md). */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): LocalRuntimeOptions {
  return {
    port: number('PORT') ?? 3000,
    dataDir: env.VIDBOT_DATA_DIR ? resolve(env.VIDBOT_DATA_DIR) : undefined,
    devApiKey: env.DEV_API_KEY || undefined,
    devWebhookSecret: env.DEV_WEBHOOK_SECRET || undefined,
    emulatorPorts: { dynamodb: number('VIDBOT_DYNAMODB_PORT'), s3: number('VIDBOT_S3_PORT'), sqs: number('VIDBOT_SQS_PORT') },
    visibilityScale: number('VIDBOT_VISIBILITY_SCALE'),
    scheduleSeconds: number('VIDBOT_SCHEDULE_SECONDS'),
    concurrency: number('VIDBOT_CONCURRENCY'),
    authorizerType: env.VIDBOT_AUTHORIZER_TYPE === 'TOKEN' || env.VIDBOT_AUTHORIZER_TYPE === 'REQUEST' ? env.VIDBOT_AUTHORIZER_TYPE : undefined,
    // The terminal shows the banner and what needs attention; VIDBOT_LOG_LEVEL=info shows the runtime's steps too.
    allowLoopbackPorts: parseLoopbackPorts(env.VIDBOT_LOOPBACK_ALLOW),
    logLevel: (env.VIDBOT_LOG_LEVEL as LogLevel | undefined) ?? 'warn',
  };
}

async function main() {
  const options = optionsFromEnv();
  if (process.argv.includes('--fresh')) {
    const dir = options.dataDir ?? resolve(REPO_ROOT, '.local');
    await rm(dir, { recursive: true, force: true });
    console.log(`removed ${dir}`);
  }
  const functionLog = resolve(options.dataDir ?? resolve(REPO_ROOT, '.local'), 'logs', 'functions.log');
  const verbose = process.argv.includes('--verbose');
  const runtime = await startLocalRuntime({ prewarm: true, ...options, functionOutput: functionOutputToFile(functionLog, verbose) });
  const tenant = runtime.devTenant!;
  const banner = [
    '',
    '  vidbot local runtime ready',
    '',
    `  Console        ${runtime.url}/  (open it and paste the API key)`,
    `  API            ${runtime.url}`,
    `  API key        ${tenant.apiKey}`,
    `  Webhook secret ${tenant.webhookSecret}`,
    `  Data dir       ${runtime.dataDir}  (DynamoDB + S3 persist; SQS is in memory)`,
    `  Emulators      DynamoDB ${runtime.endpoints.dynamodb}  S3 ${runtime.endpoints.s3}  SQS ${runtime.endpoints.sqs}  (signed with the data dir's credentials only)`,
    `  Function logs  ${functionLog}${verbose ? '  (also printed here: --verbose)' : '  (npm start -- --verbose prints them here too)'}`,
    '',
    '  List the bots:',
    `    curl -s -X POST ${runtime.url}/v1/bot/ -H "Authorization: Bearer ${tenant.apiKey}"`,
    '',
  ].join('\n');
  console.log(banner);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping vidbot local runtime`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await runtime.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: Error) => {
  console.error(`vidbot local runtime failed to start: ${error.stack ?? error.message}`);
  process.exit(1);
});
