/**
 * `npm start`: the whole service on this machine, no AWS account needed. See infra/local/README.md.
 */
import { rm } from 'node:fs/promises';
import { register } from 'node:module';
import { resolve } from 'node:path';
import { inboxUrl } from '#commons/presenters/inbox';
import { looksLikeApiKey, looksLikeWebhookSecret } from '#domain/api-keys';
import { functionOutputToFile, type LogLevel } from './log.ts';
import { parseLoopbackPorts } from './loopback.ts';
import { type LocalRuntimeOptions, REPO_ROOT, startLocalRuntime } from './runtime.ts';
import { lockDataDir, StartupError } from './startup-checks.ts';

// tsx's compiler process on this thread ends once the runtime's modules are loaded (infra/local/compiler-hooks.mjs).
register('./compiler-hooks.mjs', import.meta.url);

const number = (name: string, env: NodeJS.ProcessEnv, max = Number.MAX_SAFE_INTEGER): number | undefined => {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0 || parsed > max)
    throw new StartupError(`${name} must be a number from 0 to ${max}, got "${value}"; fix it or unset it: ${name}= npm start`);
  return parsed;
};

const PORT_MAX = 65535;
const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

/** DEV_API_KEY and DEV_WEBHOOK_SECRET as the key rules take them, or a StartupError naming the fix. */
function devCredentials(env: NodeJS.ProcessEnv) {
  const apiKey = env.DEV_API_KEY || undefined;
  const webhookSecret = env.DEV_WEBHOOK_SECRET || undefined;
  if (apiKey !== undefined && !looksLikeApiKey(apiKey))
    throw new StartupError('DEV_API_KEY must be vb_ and 43 letters, digits, - or _; unset it to keep the generated key: DEV_API_KEY= npm start');
  if (webhookSecret !== undefined && !looksLikeWebhookSecret(webhookSecret))
    throw new StartupError('DEV_WEBHOOK_SECRET must be whsec_ and base64; unset it to keep the generated secret: DEV_WEBHOOK_SECRET= npm start');
  return { devApiKey: apiKey, devWebhookSecret: webhookSecret };
}

function logLevel(env: NodeJS.ProcessEnv): LogLevel {
  const level = env.VIDBOT_LOG_LEVEL || 'warn';
  if (!LOG_LEVELS.includes(level as LogLevel)) throw new StartupError(`VIDBOT_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${level}"`);
  return level as LogLevel;
}

const loopbackPorts = (env: NodeJS.ProcessEnv) => {
  try {
    return parseLoopbackPorts(env.VIDBOT_LOOPBACK_ALLOW);
  } catch (error) {
    throw new StartupError(`${(error as Error).message}; e.g. VIDBOT_LOOPBACK_ALLOW=9999 npm start`);
  }
};

/** The runtime's options from the environment (documented in infra/local/README.md). */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): LocalRuntimeOptions {
  return {
    port: number('PORT', env, PORT_MAX) ?? 3000,
    dataDir: env.VIDBOT_DATA_DIR ? resolve(env.VIDBOT_DATA_DIR) : undefined,
    ...devCredentials(env),
    emulatorPorts: {
      dynamodb: number('VIDBOT_DYNAMODB_PORT', env, PORT_MAX),
      s3: number('VIDBOT_S3_PORT', env, PORT_MAX),
      sqs: number('VIDBOT_SQS_PORT', env, PORT_MAX),
    },
    visibilityScale: number('VIDBOT_VISIBILITY_SCALE', env),
    scheduleSeconds: number('VIDBOT_SCHEDULE_SECONDS', env),
    concurrency: number('VIDBOT_CONCURRENCY', env),
    authorizerType: env.VIDBOT_AUTHORIZER_TYPE === 'TOKEN' || env.VIDBOT_AUTHORIZER_TYPE === 'REQUEST' ? env.VIDBOT_AUTHORIZER_TYPE : undefined,
    // The terminal shows the banner and what needs attention; VIDBOT_LOG_LEVEL=info shows the runtime's steps too.
    allowLoopbackPorts: loopbackPorts(env),
    logLevel: logLevel(env),
  };
}

async function main() {
  const options = optionsFromEnv();
  if (process.argv.includes('--fresh')) {
    const dir = options.dataDir ?? resolve(REPO_ROOT, '.local');
    // Refused while another runtime uses the dir: its data is not ours to remove.
    lockDataDir(dir).release();
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
    '  Your first video (its signed webhook goes to your inbox; the answer names the video to follow):',
    `    curl -s -X POST ${runtime.url}/v1/bot -H "Authorization: Bearer ${tenant.apiKey}" -H "Content-Type: application/json" \\`,
    `      -d '{"webhook": "${inboxUrl(runtime.url, tenant.tenantId)}", "clips": [{"bot_uid": "bot_ava", "text": "Hello! Welcome to vidbot."}]}'`,
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
  // A setting or a taken port or data dir: one line that names the fix. Anything else is a bug: its stack.
  console.error(`vidbot local runtime did not start: ${error instanceof StartupError ? error.message : (error.stack ?? error.message)}`);
  process.exit(1);
});
