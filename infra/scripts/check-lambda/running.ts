/** Step 3 of check:lambda: one function imported and invoked under one runtime, in its own process. */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { type Invocation, invocations } from './invocations.ts';
import { commandLine, nodeBinary, type Runtime } from './runtimes.ts';
import { NODE_VERSION, prepareImageX64, REGION, runner, stackName, UNREACHABLE_AWS } from './settings.ts';
import type { LambdaUnderTest } from './template.ts';

export interface Row {
  fn: string;
  runtime: string;
  imported: string;
  invoked: string;
  importMs?: number;
  invokeMs?: number;
  wallMs?: number;
  ok: boolean;
  detail?: string;
}

/**
 * The prepare function with its code in the x64 twin folder (see 4. in check-lambda.ts): the same bundles as the
 * synthesised image's, or the check fails.
 */
export function prepareTwin(fn: LambdaUnderTest): LambdaUnderTest {
  const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
  for (const file of ['index.mjs', 'probe.mjs']) {
    if (!existsSync(join(prepareImageX64, file))) throw new Error(`${prepareImageX64} has no ${file}: run without --skip-synth`);
    if (digest(join(fn.dir, file)) !== digest(join(prepareImageX64, file)))
      throw new Error(`${file} of ${prepareImageX64} differs from the synthesised prepare image's: run without --skip-synth`);
  }
  return { ...fn, dir: prepareImageX64, module: join(prepareImageX64, basename(fn.module)) };
}

/** What Lambda itself sets in a function's environment, plus fake credentials and the unreachable endpoint. */
function lambdaEnvironment(fn: LambdaUnderTest, runtimeMajor: number): Record<string, string> {
  return {
    PATH: '/usr/local/bin:/usr/bin/:/bin:/opt/bin',
    LANG: 'en_US.UTF-8',
    TZ: ':UTC',
    HOME: tmpdir(),
    LAMBDA_TASK_ROOT: fn.dir,
    LAMBDA_RUNTIME_DIR: '/var/runtime',
    AWS_EXECUTION_ENV: `AWS_Lambda_nodejs${runtimeMajor}.x`,
    AWS_LAMBDA_FUNCTION_NAME: `${stackName}-${fn.logicalId}`,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${stackName}-${fn.logicalId}`,
    AWS_LAMBDA_LOG_STREAM_NAME: 'check-lambda',
    AWS_REGION: REGION,
    AWS_DEFAULT_REGION: REGION,
    AWS_ACCESS_KEY_ID: 'AKIACHECKLAMBDA00000',
    AWS_SECRET_ACCESS_KEY: 'check-lambda-not-a-secret',
    AWS_SESSION_TOKEN: 'check-lambda-not-a-token',
    AWS_ENDPOINT_URL: UNREACHABLE_AWS,
    AWS_MAX_ATTEMPTS: '1',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    // What Lambda adds with active tracing; the daemon's UDP port here is as unreachable as AWS.
    ...(fn.tracing
      ? {
          AWS_XRAY_CONTEXT_MISSING: 'LOG_ERROR',
          AWS_XRAY_DAEMON_ADDRESS: '127.0.0.1:2000',
          _AWS_XRAY_DAEMON_ADDRESS: '127.0.0.1',
          _AWS_XRAY_DAEMON_PORT: '2000',
          _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
        }
      : {}),
    ...fn.environment,
  };
}

export function run(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs: number },
): Promise<{ code: number | null; output: string; ms: number }> {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(command, args, { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output, ms: Math.round(performance.now() - started) });
    });
  });
}

export const lastLines = (text: string, n = 15) => text.trim().split('\n').slice(-n).join('\n');

export async function checkFunction(
  fn: LambdaUnderTest,
  runtime: Runtime,
  runtimeMajor: number,
  scratch: string,
  probe?: Invocation & { module: string; timeoutMs: number },
): Promise<Row> {
  const row: Row = { fn: probe ? `${fn.name} ${probe.module}` : fn.name, runtime: runtime.label, imported: '', invoked: '', ok: false };
  const invocation = probe ?? invocations[fn.name];
  if (probe) fn = { ...fn, module: join(fn.dir, probe.module), exportName: 'probe' };
  const id = `${fn.name}-${probe ? 'probe-' : ''}${runtime.label}`;
  const spec = join(scratch, `${id}.spec.json`);
  const resultFile = join(scratch, `${id}.result.json`);
  writeFileSync(
    spec,
    JSON.stringify({
      module: fn.module,
      exportName: fn.exportName,
      event: invocation.event,
      functionName: `${stackName}-${fn.logicalId}`,
      memoryMb: fn.memoryMb,
      timeoutSeconds: fn.timeoutSeconds,
    }),
  );
  const [command, args] = commandLine(runtime, nodeBinary(runtime.arch!), [runner, spec, resultFile]);
  const { code, output, ms } = await run(command, args, {
    env: lambdaEnvironment(fn, runtimeMajor),
    cwd: fn.dir,
    timeoutMs: probe?.timeoutMs ?? 180_000,
  });
  row.wallMs = ms;
  if (!existsSync(resultFile)) {
    row.imported = 'crashed';
    row.invoked = '-';
    row.detail = `exit ${code}\n${lastLines(output)}`;
    return row;
  }
  const result = JSON.parse(readFileSync(resultFile, 'utf8'));
  row.importMs = result.importMs;
  const expectedArch = runtime.label.includes('arm64') ? 'arm64' : 'x64';
  if (result.arch !== expectedArch || result.node !== `v${NODE_VERSION}`) {
    row.imported = `wrong runtime ${result.node} ${result.arch}`;
    row.invoked = '-';
    return row;
  }
  if (result.outcome === 'import-failed') {
    row.imported = 'FAILED';
    row.invoked = '-';
    row.detail = `${result.error.name}: ${result.error.message}\n${result.error.stack ?? ''}\n${lastLines(output)}`;
    return row;
  }
  row.imported = 'ok';
  row.invokeMs = result.invokeMs;
  try {
    row.invoked = invocation.expect(result);
    row.ok = true;
  } catch (error) {
    row.invoked = 'UNEXPECTED';
    row.detail = `${(error as Error).message}\n${lastLines(output)}`;
  }
  return row;
}

export async function pool<T>(tasks: (() => Promise<T>)[], size: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]!();
      }
    }),
  );
  return results;
}
