/** Steps 1 and 2 of check:lambda (see check-lambda.ts): the synthesis, and each function of the wiring as the template deploys it. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type FunctionName, functions } from '../../wiring.ts';
import { ACCOUNT, NODE_VERSION, prepareImageX64, REGION, root, stackName, UNREACHABLE_AWS, workDir } from './settings.ts';

export function synthesize(): void {
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

export interface LambdaUnderTest {
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

export function lambdasOfTemplate(): { lambdas: LambdaUnderTest[]; runtimeMajor: number; others: string[] } {
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
