/**
 * Runs inside the Lambda's Node (started by check-lambda.ts, with nothing but the function's environment): imports
 * one function bundle the way the nodejs runtime does (`index.handler` → index.mjs or index.js, export handler),
 * invokes it once with the given event and a Lambda context, and writes what happened as JSON to a result file
 * (stdout belongs to the function's logs). Plain JavaScript: no tsx, no node_modules in reach.
 *
 *   node lambda-runner.mjs <spec.json> <result.json>
 *   spec: { module, exportName, event, functionName, memoryMb, timeoutSeconds }
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [specFile, resultFile] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(specFile, 'utf8'));
const result = { node: process.version, arch: process.arch, importMs: 0, invokeMs: 0 };

const describe = (error) => ({
  name: error?.name,
  message: String(error?.message ?? error),
  code: error?.code ?? error?.cause?.code,
  stack: typeof error?.stack === 'string' ? error.stack.split('\n').slice(0, 8).join('\n') : undefined,
});

function lambdaContext() {
  const deadline = Date.now() + spec.timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: spec.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:123456789012:function:${spec.functionName}`,
    memoryLimitInMB: String(spec.memoryMb),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${spec.functionName}`,
    logStreamName: `check-lambda/${randomUUID()}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done() {},
    fail() {},
    succeed() {},
  };
}

let started = performance.now();
try {
  const module = await import(pathToFileURL(spec.module).href);
  result.importMs = Math.round(performance.now() - started);
  const handler = module[spec.exportName];
  if (typeof handler !== 'function') throw new Error(`${spec.module} does not export a function "${spec.exportName}"`);
  started = performance.now();
  try {
    result.value = (await handler(spec.event, lambdaContext())) ?? null;
    result.outcome = 'returned';
  } catch (error) {
    result.outcome = 'threw';
    result.error = describe(error);
  }
  result.invokeMs = Math.round(performance.now() - started);
} catch (error) {
  result.importMs = Math.round(performance.now() - started);
  result.outcome = 'import-failed';
  result.error = describe(error);
}
writeFileSync(resultFile, JSON.stringify(result));
// The runtime freezes the environment once the handler's promise settles; do not wait for open sockets or timers.
process.exit(0);
