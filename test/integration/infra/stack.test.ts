import { type CfnElement, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { beforeAll, describe, expect, it } from 'vitest';
import { envNames } from '#commons/env-names';
import { dimensionNames, METRICS_NAMESPACE, metricNames, SERVICE_FAULT_CODES, SERVICE_NAME } from '#commons/metric-names';
import { BUILT_IN_BOTS } from '#domain/bot';
import { ServiceAlarms } from '#infra/constructs/service-alarms.ts';
import { objectAccess } from '#infra/constructs/vidbot-function.ts';
import { WorkQueue } from '#infra/constructs/work-queue.ts';
import type { VidbotStack } from '#infra/stack.ts';
import {
  api,
  apiMethods,
  apiResourcePath,
  assemblyLeaseSeconds,
  type FunctionDecl,
  type FunctionName,
  functions,
  observability,
  type QueueName,
  queues,
  routes,
  speechEngines,
  type TableName,
  tables,
} from '#infra/wiring.ts';
import { synthStack } from '../../support/synth.ts';

type Resources = Record<string, { Type: string; Properties: any; DeletionPolicy?: string }>;

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const functionNames = Object.keys(functions) as FunctionName[];
const decl = (name: FunctionName) => functions[name] as FunctionDecl;
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
/** What active tracing grants (on "*": X-Ray's trace actions have no resource type). */
const XRAY_ACTIONS = ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'];

let stack: VidbotStack;
let template: Template;
let resources: Resources;

/** Logical id of a construct's CloudFormation resource. */
const idOf = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
const fnId = (name: FunctionName) => stack.getLogicalId(stack.functions[name].node.defaultChild as CfnElement);
const tableId = (name: TableName) => `${pascal(name)}Table`;

/** Every IAM statement attached to a function's role, flattened. */
function statementsOf(name: FunctionName): { Action: string | string[]; Resource: unknown }[] {
  const roleId = stack.getLogicalId(stack.functions[name].role!.node.defaultChild as CfnElement);
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(roleId))
    .flatMap((r) => r.Properties.PolicyDocument.Statement);
}
const actionsOf = (s: { Action: string | string[] }) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
/** Logical ids of this stack's tables a statement refers to. */
function tablesIn(statement: { Resource: unknown }): TableName[] {
  const text = JSON.stringify(statement.Resource);
  return (Object.keys(tables) as TableName[]).filter((t) => text.includes(`"${tableLogicalIds[t]}"`));
}
let tableLogicalIds: Record<TableName, string>;

beforeAll(() => {
  ({ stack } = synthStack());
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
  tableLogicalIds = Object.fromEntries(
    Object.entries(resources)
      .filter(([, r]) => r.Type === 'AWS::DynamoDB::Table')
      .map(([id]) => [(Object.keys(tables) as TableName[]).find((t) => id.startsWith(tableId(t)))!, id]),
  ) as Record<TableName, string>;
}, 120_000);

describe('functions', () => {
  it('creates one Lambda function per wiring function, plus the two CDK helper functions (seed, preview upload)', () => {
    template.resourceCountIs('AWS::Lambda::Function', functionNames.length + 2);
    for (const name of functionNames) expect(resources[fnId(name)]?.Type).toBe('AWS::Lambda::Function');
  });

  it('runs every bundled function on nodejs22.x / arm64 with memory and timeout from the wiring', () => {
    for (const name of functionNames.filter((n) => !decl(n).image)) {
      expect(resources[fnId(name)]!.Properties, name).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: decl(name).memoryMb,
        Timeout: decl(name).timeoutSeconds,
        Environment: { Variables: { NODE_OPTIONS: '--enable-source-maps', POWERTOOLS_SERVICE_NAME: 'vidbot', POWERTOOLS_LOG_LEVEL: 'INFO' } },
      });
    }
  });

  it.each(['render', 'prepare'] as const)('runs %s as an arm64 container image', (name) => {
    expect(resources[fnId(name)]!.Properties).toMatchObject({
      PackageType: 'Image',
      Architectures: ['arm64'],
      MemorySize: functions[name].memoryMb,
      Timeout: functions[name].timeoutSeconds,
      Code: { ImageUri: expect.anything() },
    });
    expect(resources[fnId(name)]!.Properties.Runtime).toBeUndefined();
  });

  it("gives render and assemble the /tmp their media needs, and the others Lambda's default", () => {
    expect(resources[fnId('render')]!.Properties.EphemeralStorage).toEqual({ Size: 2048 });
    expect(resources[fnId('assemble')]!.Properties.EphemeralStorage).toEqual({ Size: 4096 });
    for (const name of functionNames.filter((n) => n !== 'render' && n !== 'assemble')) {
      expect(resources[fnId(name)]!.Properties.EphemeralStorage, name).toBeUndefined();
    }
  });

  it('gives every function its own log group with one month retention', () => {
    for (const name of functionNames) {
      const logGroupRef = resources[fnId(name)]!.Properties.LoggingConfig.LogGroup.Ref;
      expect(resources[logGroupRef]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 } });
    }
  });

  it('sets exactly the environment the wiring names, pointing at the right resources', () => {
    for (const name of functionNames) {
      const variables = resources[fnId(name)]!.Properties.Environment.Variables;
      const expected = [
        envNames.mode,
        ...Object.keys(decl(name).tables ?? {}).map(envNames.table),
        ...Object.keys(decl(name).queues ?? {}).map(envNames.queueUrl),
        ...((decl(name) as { deadLetters?: readonly string[] }).deadLetters ?? []).map(envNames.deadLetterQueueUrl),
        ...(decl(name).bucket ? [envNames.bucket] : []),
        ...((decl(name) as { voices?: boolean }).voices ? [envNames.speechEngine] : []),
        ...Object.keys(decl(name).environment ?? {}),
        // A queue consumer learns its queue's receive limit (its last attempt fails the job for good) and its
        // queue's name (the queue dimension of its metrics).
        ...(decl(name).trigger === 'queue' ? [envNames.maxReceiveCount, envNames.consumedQueue] : []),
      ];
      const platform = [envNames.serviceName, envNames.logLevel, 'NODE_OPTIONS'];
      expect(
        Object.keys(variables)
          .filter((k) => !platform.includes(k))
          .sort(),
        name,
      ).toEqual(expected.sort());
      expect(variables[envNames.mode]).toBe('cloud');
    }
    const createVideo = resources[fnId('createVideo')]!.Properties.Environment.Variables;
    expect(createVideo.TABLE_BOTS).toEqual({ Ref: tableLogicalIds.bots });
    expect(createVideo.TABLE_VIDEOS).toEqual({ Ref: tableLogicalIds.videos });
    expect(createVideo.QUEUE_RENDER_URL).toEqual({ Ref: idOf(stack.node.findChild('RenderQueue').node.findChild('Queue')) });
    const authorizer = resources[fnId('authorizer')]!.Properties.Environment.Variables;
    expect(authorizer.TABLE_KEYS).toEqual({ Ref: tableLogicalIds.keys });
    expect(authorizer.BUCKET_NAME).toBeUndefined();
    expect(resources[fnId('render')]!.Properties.Environment.Variables.MAX_RECEIVE_COUNT).toBe(String(queues.render.maxReceiveCount));
    expect(resources[fnId('notifier')]!.Properties.Environment.Variables.CONSUMED_QUEUE).toBe('notify');
    // The functions that list, check or speak voices learn that the deployment speaks Polly; the others nothing.
    for (const name of functionNames) {
      const speech = resources[fnId(name)]!.Properties.Environment.Variables[envNames.speechEngine];
      expect(speech, name).toBe((decl(name) as { voices?: boolean }).voices ? speechEngines.cloud : undefined);
    }
    expect(speechEngines.cloud).toBe('polly');
    expect(resources[fnId('assemble')]!.Properties.Environment.Variables.ASSEMBLY_LEASE_SECONDS).toBe(String(assemblyLeaseSeconds));
    const sweeper = resources[fnId('sweeper')]!.Properties.Environment.Variables;
    expect(sweeper.QUEUE_RENDER_DLQ_URL).toEqual({ Ref: idOf(stack.node.findChild('RenderQueue').node.findChild('DeadLetterQueue')) });
    expect(sweeper.QUEUE_PREPARE_DLQ_URL).toEqual({ Ref: idOf(stack.node.findChild('PrepareQueue').node.findChild('DeadLetterQueue')) });
    expect(sweeper[envNames.table('accountBots')]).toEqual({ Ref: tableLogicalIds.accountBots });
  });

  it('attaches the media layer (arm64, nodejs22.x) to the functions that declare it', () => {
    template.hasResourceProperties('AWS::Lambda::LayerVersion', {
      CompatibleArchitectures: ['arm64'],
      CompatibleRuntimes: ['nodejs22.x'],
      Description: Match.stringLikeRegexp('ffmpeg'),
    });
    const layerId = Object.entries(resources).find(([id, r]) => r.Type === 'AWS::Lambda::LayerVersion' && id.startsWith('MediaLayer'))![0];
    for (const name of functionNames) {
      const attached = JSON.stringify(resources[fnId(name)]!.Properties.Layers ?? []).includes(layerId);
      expect(attached, name).toBe(((decl(name).layers ?? []) as string[]).includes('media'));
    }
  });
});

describe('least privilege', () => {
  it('grants each function access to exactly the tables it declares, writes only where declared', () => {
    for (const name of functionNames) {
      const declared = (decl(name).tables ?? {}) as Partial<Record<TableName, string>>;
      const statements = statementsOf(name);
      const reachable = new Set(statements.flatMap(tablesIn));
      expect([...reachable].sort(), name).toEqual(Object.keys(declared).sort());
      const written = new Set(statements.filter((s) => actionsOf(s).some((a) => WRITE_ACTIONS.includes(a))).flatMap(tablesIn));
      const mayWrite = Object.entries(declared)
        .filter(([, access]) => access !== 'read')
        .map(([t]) => t);
      expect([...written].sort(), name).toEqual(mayWrite.sort());
    }
  });

  it('the bots function cannot write the videos table (or read it)', () => {
    const statements = statementsOf('bots');
    expect(statements.flatMap(tablesIn)).not.toContain('videos');
    expect(statements.filter((s) => tablesIn(s).includes('bots')).flatMap(actionsOf)).not.toContain('dynamodb:PutItem');
  });

  it('the authorizer only reads the keys table and touches nothing else (besides writing its traces)', () => {
    const statements = statementsOf('authorizer').filter((s) => !actionsOf(s).every((a) => XRAY_ACTIONS.includes(a)));
    expect(statements.every((s) => tablesIn(s).length === 1 && tablesIn(s)[0] === 'keys')).toBe(true);
    expect(statements.flatMap(actionsOf).some((a) => WRITE_ACTIONS.includes(a))).toBe(false);
    expect(statements.flatMap(actionsOf).every((a) => a.startsWith('dynamodb:'))).toBe(true);
  });

  it("lets a function send only to the queues it declares 'send' (not to a queue it only consumes)", () => {
    for (const name of functionNames) {
      const sendsTo = JSON.stringify(
        statementsOf(name)
          .filter((s) => actionsOf(s).includes('sqs:SendMessage'))
          .map((s) => s.Resource),
      );
      const reachable = (Object.keys(queues) as QueueName[]).filter((q) =>
        sendsTo.includes(`"${idOf(stack.node.findChild(`${pascal(q)}Queue`).node.findChild('Queue') as any)}"`),
      );
      const sends = Object.entries((decl(name).queues ?? {}) as Record<string, string>)
        .filter(([, access]) => access === 'send')
        .map(([q]) => q);
      expect(reachable.sort(), name).toEqual(sends.sort());
    }
  });

  it('allows S3 delete only where the wiring names it, on the key prefixes it names, and put only where it writes', () => {
    const bucketArn = { 'Fn::GetAtt': [idOf(stack.mediaStorage.bucket as any), 'Arn'] };
    for (const name of functionNames) {
      const statements = statementsOf(name);
      const actions = statements.flatMap(actionsOf);
      const declared = decl(name).bucket;
      const { access, deletes } = declared === undefined ? { access: undefined, deletes: [] } : objectAccess(declared);
      const deleted = statements
        .filter((s) => actionsOf(s).includes('s3:DeleteObject*'))
        .flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]));
      expect(deleted, name).toEqual(deletes.map((pattern) => ({ 'Fn::Join': ['', [bucketArn, `/${pattern}`]] })));
      expect(
        actions.some((a) => a.startsWith('s3:PutObject')),
        name,
      ).toBe(access !== undefined && access !== 'read');
      expect(
        actions.some((a) => a.startsWith('s3:GetObject')),
        name,
      ).toBe(access !== undefined && access !== 'write');
    }
  });

  it('lets assemble delete only outputs/ (an output it discards), and videos any object (DELETE /v1/video)', () => {
    expect(objectAccess(functions.assemble.bucket).deletes).toEqual(['outputs/*']);
    expect(objectAccess(functions.videos.bucket).deletes).toEqual(['*']);
    expect(() => objectAccess({ access: 'readWrite', delete: ['outputs/*'] })).toThrow(/ending in "\/", got "outputs\/\*"/);
    expect(() => objectAccess({ access: 'readWrite', delete: [] })).toThrow(/at least one/);
    // The sweeper only deletes a failed bot's uploads: no read, no put.
    expect(objectAccess(functions.sweeper.bucket)).toEqual({ access: undefined, deletes: ['uploads/*'] });
    // DELETE /v1/bot/{uid} removes a bot's uploads, look and retired looks; nothing else.
    expect(objectAccess(functions.bots.bucket).deletes).toEqual(['looks/*', 'retired-looks/*', 'uploads/*']);
  });

  it('grants polly:SynthesizeSpeech only to functions with polly: true', () => {
    for (const name of functionNames) {
      expect(statementsOf(name).flatMap(actionsOf).includes('polly:SynthesizeSpeech'), name).toBe(Boolean(decl(name).polly));
    }
  });
});

describe('api', () => {
  /** "GET /v1/bot" -> method resource, built by walking the API Gateway resource tree. */
  function methodsByRoute(): Map<string, any> {
    const paths = new Map<string, string>();
    const pathOf = (id: string): string => {
      if (paths.has(id)) return paths.get(id)!;
      const r = resources[id]!;
      const parent = r.Properties.ParentId;
      const parentPath = parent['Fn::GetAtt'] ? '' : pathOf(parent.Ref);
      const path = `${parentPath}/${r.Properties.PathPart}`;
      paths.set(id, path);
      return path;
    };
    const methods = new Map<string, any>();
    for (const r of Object.values(resources)) {
      if (r.Type !== 'AWS::ApiGateway::Method') continue;
      const path = r.Properties.ResourceId['Fn::GetAtt'] ? '/' : pathOf(r.Properties.ResourceId.Ref);
      methods.set(`${r.Properties.HttpMethod} ${path}`, r.Properties);
    }
    return methods;
  }

  it('has one method per wiring route, a trailing slash sharing its resource', () => {
    const methods = methodsByRoute();
    const expected = new Set(routes.map((r) => `${r.method} ${apiResourcePath(r.path)}`));
    expect([...methods.keys()].sort()).toEqual([...expected].sort());
    expect(methods.has('POST /v1/bot')).toBe(true);
    expect(methods.has('POST /v1/create_video')).toBe(true);
    expect(apiResourcePath('/v1/bot/')).toBe('/v1/bot');
  });

  it('integrates each route with its function (Lambda proxy) and puts all but health behind the authorizer', () => {
    const methods = methodsByRoute();
    const authorizerId = Object.entries(resources).find(([, r]) => r.Type === 'AWS::ApiGateway::Authorizer')![0];
    for (const route of routes) {
      const method = methods.get(`${route.method} ${apiResourcePath(route.path)}`);
      expect(method.Integration.Type, route.path).toBe('AWS_PROXY');
      expect(JSON.stringify(method.Integration.Uri), route.path).toContain(`"${fnId(route.function)}"`);
      if (route.auth === 'none') {
        expect(method.AuthorizationType).toBe('NONE');
        expect(method.AuthorizerId).toBeUndefined();
      } else {
        expect(method.AuthorizationType, route.path).toBe('CUSTOM');
        expect(method.AuthorizerId, route.path).toEqual({ Ref: authorizerId });
      }
      // Authorised methods need the usage-plan key the authorizer returns; the health check needs none.
      expect(method.ApiKeyRequired === true, route.path).toBe(route.auth !== 'none');
    }
    expect(methods.get('GET /health').AuthorizationType).toBe('NONE');
  });

  it('authorizes with the authorizer function on the Authorization header, cached for 5 minutes', () => {
    template.resourceCountIs('AWS::ApiGateway::Authorizer', 1);
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: 300,
    });
    const authorizer = Object.values(resources).find((r) => r.Type === 'AWS::ApiGateway::Authorizer')!;
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(`"${fnId('authorizer')}"`);
  });

  it('deploys stage prod with tracing, access logs and throttling', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      TracingEnabled: true,
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.anyValue() },
      MethodSettings: Match.arrayWith([
        Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 }),
      ]),
    });
  });

  it('throttles each API key with a usage plan on the stage, the key coming from the authorizer', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    template.resourceCountIs('AWS::ApiGateway::UsagePlan', 1);
    const stageId = Object.entries(resources).find(([, r]) => r.Type === 'AWS::ApiGateway::Stage')![0];
    const restApiId = Object.entries(resources).find(([, r]) => r.Type === 'AWS::ApiGateway::RestApi')![0];
    template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: api.usagePlan.rateLimit, BurstLimit: api.usagePlan.burstLimit },
      ApiStages: [{ ApiId: { Ref: restApiId }, Stage: { Ref: stageId } }],
    });
    expect(resources[Object.keys(resources).find((id) => resources[id]!.Type === 'AWS::ApiGateway::UsagePlan')!]!.Properties.Quota).toBeUndefined();
    // The keys CLI finds the plan through this output.
    template.hasOutput('UsagePlanId', { Value: { Ref: Match.stringLikeRegexp('UsagePlan') } });
    // A key's own rate stays below the stage's, or one key could still take the whole stage.
    expect(api.usagePlan.rateLimit).toBeLessThan(50);
    expect(api.usagePlan.burstLimit).toBeLessThan(100);
  });

  it("answers API Gateway errors in the handlers' JSON error shape", () => {
    const responses = Object.values(resources)
      .filter((r) => r.Type === 'AWS::ApiGateway::GatewayResponse')
      .map((r) => r.Properties);
    const byType = new Map(responses.map((p) => [p.ResponseType, p]));
    const expectations: [string, string | undefined, string][] = [
      ['UNAUTHORIZED', '401', 'unauthorized'],
      ['ACCESS_DENIED', '403', 'unauthorized'],
      ['THROTTLED', '429', 'rate_limited'],
      ['QUOTA_EXCEEDED', '429', 'quota_exceeded'],
      ['INVALID_API_KEY', '403', 'unauthorized'],
      ['REQUEST_TOO_LARGE', '413', 'payload_too_large'],
      ['DEFAULT_4XX', undefined, 'bad_request'],
      ['DEFAULT_5XX', undefined, 'internal_error'],
    ];
    for (const [type, status, code] of expectations) {
      const response = byType.get(type);
      expect(response, type).toBeDefined();
      expect(response.StatusCode, type).toBe(status);
      expect(response.ResponseParameters['gatewayresponse.header.Content-Type'], type).toBe("'application/json'");
      const body = JSON.parse(response.ResponseTemplates['application/json']);
      expect(body.error.code, type).toBe(code);
      expect(typeof body.error.message, type).toBe('string');
    }
    for (const type of ['UNAUTHORIZED', 'ACCESS_DENIED']) {
      expect(byType.get(type).ResponseParameters['gatewayresponse.header.WWW-Authenticate']).toBe(`'Bearer realm="vidbot"'`);
    }
  });

  it('rejects two routes that share an API Gateway method but not their function (the wiring refuses it for stack and local alike)', () => {
    const http = (path: string) => ({
      entry: 'x.ts',
      trigger: 'http' as const,
      memoryMb: 128,
      timeoutSeconds: 3,
      routes: [{ method: 'POST' as const, path }],
    });
    expect(() => apiMethods({ a: http('/v1/bot'), b: http('/v1/bot/') })).toThrow(/post \/v1\/bot and post \/v1\/bot\/ are one api gateway method/i);
    expect(
      apiMethods({
        a: {
          ...http('/v1/bot'),
          routes: [
            { method: 'POST', path: '/v1/bot' },
            { method: 'POST', path: '/v1/bot/' },
          ],
        },
      }),
    ).toEqual([{ resourcePath: '/v1/bot', method: 'POST', function: 'a', auth: true, paths: ['/v1/bot', '/v1/bot/'] }]);
  });
});

describe('queues', () => {
  it("creates each wiring queue with a dead-letter queue, SSE and the wiring's timeouts and receive counts", () => {
    template.resourceCountIs('AWS::SQS::Queue', Object.keys(queues).length * 2);
    for (const [name, q] of Object.entries(queues)) {
      const queue = resources[idOf(stack.node.findChild(`${pascal(name)}Queue`).node.findChild('Queue') as any)]!;
      const dlqId = idOf(stack.node.findChild(`${pascal(name)}Queue`).node.findChild('DeadLetterQueue') as any);
      expect(queue.Properties, name).toMatchObject({
        VisibilityTimeout: q.visibilityTimeoutSeconds,
        SqsManagedSseEnabled: true,
        RedrivePolicy: { maxReceiveCount: q.maxReceiveCount, deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] } },
      });
      expect(resources[dlqId]!.Properties).toMatchObject({ MessageRetentionPeriod: 14 * 24 * 3600, SqsManagedSseEnabled: true });
    }
  });

  it('holds an assembly claim longer than the assembler can run, and shorter than its message stays hidden', () => {
    // Otherwise a crashed assembler's message would come back to a claim still held, stand down and be lost.
    expect(assemblyLeaseSeconds).toBeGreaterThan(functions.assemble.timeoutSeconds);
    expect(assemblyLeaseSeconds).toBeLessThan(queues.assemble.visibilityTimeoutSeconds);
  });

  it('enforces TLS on every queue', () => {
    const policies = Object.values(resources).filter((r) => r.Type === 'AWS::SQS::QueuePolicy');
    expect(policies).toHaveLength(Object.keys(queues).length * 2);
    for (const p of policies) expect(JSON.stringify(p.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
  });

  it('feeds each queue function through an event source mapping with partial batch responses', () => {
    const consumers = functionNames.filter((n) => decl(n).trigger === 'queue');
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', consumers.length);
    for (const name of consumers) {
      const d = decl(name) as Extract<FunctionDecl, { trigger: 'queue' }>;
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: fnId(name) },
        EventSourceArn: { 'Fn::GetAtt': [idOf(stack.node.findChild(`${pascal(d.queue)}Queue`).node.findChild('Queue') as any), 'Arn'] },
        BatchSize: d.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ...(d.maxConcurrency ? { ScalingConfig: { MaximumConcurrency: d.maxConcurrency } } : {}),
      });
    }
  });

  it('alarms on every dead-letter queue as soon as one message is there, notifying the encrypted alarm topic', () => {
    const dlqAlarms = Object.values(resources).filter(
      (r) => r.Type === 'AWS::CloudWatch::Alarm' && r.Properties.MetricName === 'ApproximateNumberOfMessagesVisible',
    );
    expect(dlqAlarms).toHaveLength(Object.keys(queues).length);
    const topicId = Object.entries(resources).find(([, r]) => r.Type === 'AWS::SNS::Topic')![0];
    for (const name of Object.keys(queues)) {
      const dlqId = idOf(stack.node.findChild(`${pascal(name)}Queue`).node.findChild('DeadLetterQueue') as any);
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Namespace: 'AWS/SQS',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId, 'QueueName'] } }],
        AlarmActions: [{ Ref: topicId }],
      });
    }
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
  });
});

describe('observability', () => {
  const alarms = () => Object.entries(resources).filter(([, r]) => r.Type === 'AWS::CloudWatch::Alarm');
  const topicId = () => Object.entries(resources).find(([, r]) => r.Type === 'AWS::SNS::Topic')![0];
  /** The metric-math alarm whose logical id starts with `prefix`, with its metrics by id. */
  function rateAlarm(prefix: string) {
    const [, alarm] = alarms().find(([id]) => id.startsWith(prefix))!;
    const metrics = Object.fromEntries((alarm.Properties.Metrics as { Id: string }[]).map((m) => [m.Id, m])) as Record<string, any>;
    return { properties: alarm.Properties, metrics };
  }
  const dashboardBody = () => JSON.stringify(Object.values(resources).find((r) => r.Type === 'AWS::CloudWatch::Dashboard')!.Properties.DashboardBody);

  it('traces every wiring function with X-Ray (active), granting the trace actions on "*" and nothing else there but Polly', () => {
    for (const name of functionNames) {
      expect(resources[fnId(name)]!.Properties.TracingConfig, name).toEqual({ Mode: 'Active' });
      const onAnything = statementsOf(name)
        .filter((s) => s.Resource === '*')
        .flatMap(actionsOf);
      // CDK merges statements with the same resource: Polly's SynthesizeSpeech (no resource type either) joins them.
      expect(onAnything.sort(), name).toEqual([...XRAY_ACTIONS, ...(decl(name).polly ? ['polly:SynthesizeSpeech'] : [])].sort());
    }
  });

  it("alarms when a queue's oldest message waits longer than the wiring allows, two 5-minute periods in a row", () => {
    for (const [name, q] of Object.entries(queues)) {
      const queueId = idOf(stack.node.findChild(`${pascal(name)}Queue`).node.findChild('Queue') as any);
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateAgeOfOldestMessage',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
        Statistic: 'Maximum',
        Period: 300,
        Threshold: q.oldestMessageAlarmSeconds,
        ComparisonOperator: 'GreaterThanThreshold',
        EvaluationPeriods: 2,
        TreatMissingData: 'notBreaching',
        AlarmActions: [{ Ref: topicId() }],
      });
    }
    // Each threshold leaves room for one healthy run of the queue's consumer.
    expect(queues.render.oldestMessageAlarmSeconds).toBeGreaterThan(functions.render.timeoutSeconds);
    expect(queues.assemble.oldestMessageAlarmSeconds).toBeGreaterThan(functions.assemble.timeoutSeconds);
  });

  it("alarms on the render failure rate: videos failed for service faults per video created, from the functions' EMF metrics", () => {
    const { properties, metrics } = rateAlarm('AlarmsRenderFailureRate');
    const decl = observability.renderFailureRate;
    expect(properties).toMatchObject({
      Threshold: decl.percent,
      EvaluationPeriods: decl.evaluationPeriods,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId() }],
    });
    const service = { Name: dimensionNames.service, Value: SERVICE_NAME };
    expect(metrics.total.MetricStat).toEqual({
      Metric: { Namespace: METRICS_NAMESPACE, MetricName: metricNames.videosCreated, Dimensions: [service] },
      Period: decl.periodMinutes * 60,
      Stat: 'Sum',
    });
    const failed = Object.values(metrics).filter((m) => m.MetricStat?.Metric.MetricName === metricNames.videosFailed);
    expect(failed.map((m) => m.MetricStat.Metric.Dimensions.find((d: { Name: string }) => d.Name === dimensionNames.errorCode).Value).sort()).toEqual(
      [...SERVICE_FAULT_CODES].sort(),
    );
    expect(metrics.expr_1.Expression).toBe(`IF(total >= ${decl.minimum}, 100 * (${failed.map((m) => `FILL(${m.Id}, 0)`).join(' + ')}) / total, 0)`);
  });

  it('alarms on the webhook failure rate: failed attempts per attempt', () => {
    const { properties, metrics } = rateAlarm('AlarmsWebhookFailureRate');
    const decl = observability.webhookFailureRate;
    expect(properties).toMatchObject({ Threshold: decl.percent, EvaluationPeriods: decl.evaluationPeriods, AlarmActions: [{ Ref: topicId() }] });
    expect(metrics.total.MetricStat.Metric).toMatchObject({ Namespace: METRICS_NAMESPACE, MetricName: metricNames.webhookAttempts });
    expect(metrics.f0.MetricStat).toMatchObject({
      Metric: { Namespace: METRICS_NAMESPACE, MetricName: metricNames.webhookFailures },
      Period: decl.periodMinutes * 60,
      Stat: 'Sum',
    });
    expect(metrics.expr_1.Expression).toBe(`IF(total >= ${decl.minimum}, 100 * (FILL(f0, 0)) / total, 0)`);
  });

  it("alarms on the API's 5xx rate: 5XXError per request of the stage", () => {
    const { properties, metrics } = rateAlarm('AlarmsApi5xxRate');
    const decl = observability.api5xxRate;
    const stageId = idOf(stack.api.api.deploymentStage);
    expect(properties).toMatchObject({ Threshold: decl.percent, EvaluationPeriods: decl.evaluationPeriods, AlarmActions: [{ Ref: topicId() }] });
    const dimensions = [
      { Name: 'ApiName', Value: Match.anyValue() },
      { Name: 'Stage', Value: { Ref: stageId } },
    ];
    expect(metrics.f0.MetricStat).toMatchObject({
      Metric: { Namespace: 'AWS/ApiGateway', MetricName: '5XXError' },
      Period: decl.periodMinutes * 60,
      Stat: 'Sum',
    });
    expect(metrics.total.MetricStat).toMatchObject({ Metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Count' }, Stat: 'SampleCount' });
    for (const m of [metrics.f0, metrics.total])
      expect(m.MetricStat.Metric.Dimensions.map((d: { Name: string }) => d.Name)).toEqual(dimensions.map((d) => d.Name));
    expect(metrics.f0.MetricStat.Metric.Dimensions[1].Value).toEqual({ Ref: stageId });
  });

  it('has these alarms and no others: per queue dead letters and oldest message, and the three rates', () => {
    template.resourceCountIs('AWS::CloudWatch::Alarm', Object.keys(queues).length * 2 + Object.keys(observability).length);
    for (const [, alarm] of alarms())
      expect(alarm.Properties.AlarmActions, JSON.stringify(alarm.Properties.AlarmDescription)).toEqual([{ Ref: topicId() }]);
  });

  it('refuses alarm thresholds that cannot work, naming the bad value', () => {
    const scope = new Stack();
    const alarmTopic = new Topic(scope, 'Topic');
    expect(
      () => new WorkQueue(scope, 'Q', { decl: { visibilityTimeoutSeconds: 60, maxReceiveCount: 3, oldestMessageAlarmSeconds: 0 }, alarmTopic }),
    ).toThrow(/oldestMessageAlarmSeconds must be a positive whole number of seconds, got 0/);
    const apiStage = stack.api.api.deploymentStage;
    const broken = { ...observability, webhookFailureRate: { ...observability.webhookFailureRate, percent: 150 } };
    expect(() => new ServiceAlarms(new Stack(), 'Alarms', { alarmTopic, apiStage, thresholds: broken })).toThrow(
      /WebhookFailureRateAlarm: percent must be above 0 and at most 100, got 150/,
    );
  });

  it('has one dashboard with videos, renders, webhooks, queues, API and functions, and every alarm', () => {
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const body = dashboardBody();
    for (const title of [
      'Alarms',
      'Videos created, completed and failed',
      'Videos failed by error code',
      'Render failure rate (%): service faults per video created',
      'Clip render seconds',
      'Render speed (seconds of video per second)',
      'Webhook attempts and failures',
      'Webhook failure rate (%)',
      'Queue wait at receive (QueueMessageAge, max)',
      'Oldest message age',
      'Queue depth (visible, in flight)',
      'Dead-letter queue depth',
      'API requests, 4xx and 5xx',
      'API latency',
      'API 5xx rate (%)',
      'Function errors',
      'Function duration (p90)',
    ])
      expect(body, title).toContain(`\\"title\\":\\"${title}\\"`);
    for (const metric of Object.values(metricNames)) expect(body, metric).toContain(metric);
    for (const queue of Object.keys(queues)) expect(body).toContain(`\\"${dimensionNames.queue}\\",\\"${queue}\\"`);
    for (const [id] of alarms()) expect(body, id).toContain(`{"Fn::GetAtt":["${id}","Arn"]}`);
    for (const name of functionNames) expect(body, name).toContain(`{"Ref":"${fnId(name)}"}`);
    for (const name of Object.keys(queues)) {
      expect(body).toContain(`{"Fn::GetAtt":["${idOf(stack.node.findChild(`${pascal(name)}Queue`).node.findChild('Queue') as any)}","QueueName"]}`);
      expect(body).toContain(
        `{"Fn::GetAtt":["${idOf(stack.node.findChild(`${pascal(name)}Queue`).node.findChild('DeadLetterQueue') as any)}","QueueName"]}`,
      );
    }
    for (const metric of ['5XXError', '4XXError', 'Latency', 'IntegrationLatency', 'Count'])
      expect(body).toContain(`\\"AWS/ApiGateway\\",\\"${metric}\\"`);
  });
});

describe('schedule', () => {
  it('runs the scheduled functions at their rate', () => {
    for (const name of functionNames.filter((n) => decl(n).trigger === 'schedule')) {
      const d = decl(name) as Extract<FunctionDecl, { trigger: 'schedule' }>;
      template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: `rate(${d.everyMinutes} minutes)`,
        Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fnId(name), 'Arn'] } })],
      });
    }
  });
});

describe('storage', () => {
  it("creates the wiring's tables on demand, with PITR, encryption, TTL and indexes as declared", () => {
    template.resourceCountIs('AWS::DynamoDB::Table', Object.keys(tables).length);
    for (const [name, t] of Object.entries(tables) as [TableName, any][]) {
      const table = resources[tableLogicalIds[name]]!;
      expect(table.Properties, name).toMatchObject({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
        KeySchema: expect.arrayContaining([{ AttributeName: t.partitionKey, KeyType: 'HASH' }]),
      });
      if (t.ttlAttribute) expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: t.ttlAttribute, Enabled: true });
      else expect(table.Properties.TimeToLiveSpecification).toBeUndefined();
      const indexes = (table.Properties.GlobalSecondaryIndexes ?? []).map((i: any) => i.IndexName).sort();
      expect(indexes, name).toEqual(Object.keys(t.indexes ?? {}).sort());
      for (const index of table.Properties.GlobalSecondaryIndexes ?? []) expect(index.Projection).toEqual({ ProjectionType: 'ALL' });
      expect(table.DeletionPolicy, name).toBe(t.ttlAttribute ? 'Delete' : 'Retain');
    }
    const videos = resources[tableLogicalIds.videos]!.Properties;
    expect(videos.AttributeDefinitions).toEqual(expect.arrayContaining([{ AttributeName: 'deadlineAt', AttributeType: 'N' }]));
  });

  it('keeps media private, encrypted, TLS-only, logged, and expires temporary objects', () => {
    const mediaId = idOf(stack.mediaStorage.bucket as any);
    expect(resources[mediaId]!.Properties).toMatchObject({
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LoggingConfiguration: { DestinationBucketName: { Ref: idOf(stack.mediaStorage.accessLogs as any) } },
      // Pages may read presigned links (the console's captions track), nothing else: no credentials, no writes.
      CorsConfiguration: { CorsRules: [{ AllowedMethods: ['GET', 'HEAD'], AllowedOrigins: ['*'], MaxAge: 3600 }] },
    });
    const rules = resources[mediaId]!.Properties.LifecycleConfiguration.Rules;
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ TagFilters: [{ Key: 'retention', Value: 'temporary' }], ExpirationInDays: 7, Status: 'Enabled' }),
        expect.objectContaining({ Prefix: 'uploads/', ExpirationInDays: 1 }),
        expect.objectContaining({ Id: 'ExpireRetiredLooks', Prefix: 'retired-looks/', ExpirationInDays: 1, Status: 'Enabled' }),
        expect.objectContaining({ Prefix: 'tmp/', ExpirationInDays: 1 }),
        expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
      ]),
    );
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: mediaId },
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });
});

describe('seed and outputs', () => {
  it('writes every built-in bot to the bots table as the domain object', () => {
    const seed = Object.values(resources).find((r) => r.Type === 'Custom::AWS')!;
    const create = JSON.stringify(seed.Properties.Create);
    expect(create).toContain('batchWriteItem');
    expect(create).toContain(tableLogicalIds.bots);
    for (const bot of BUILT_IN_BOTS) {
      expect(create).toContain(bot.uid);
      expect(create).toContain(bot.voice.espeak);
      expect(create).toContain(bot.voice.polly!);
    }
    expect(JSON.stringify(seed.Properties.Update)).toBe(create);
  });

  it('uploads the bot previews under bots/', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', { DestinationBucketKeyPrefix: 'bots/', Prune: false });
  });

  it('outputs what the keys CLI and the README need', () => {
    const outputs = Object.keys(template.toJSON().Outputs);
    const expected = [
      'ApiUrl',
      'BucketName',
      ...Object.keys(tables).map((t) => `${pascal(t)}TableName`),
      ...Object.keys(queues).map((q) => `${pascal(q)}QueueUrl`),
    ];
    expect(outputs).toEqual(expect.arrayContaining(expected));
    expect(outputs).toContain('KeysTableName');
  });
});

describe('synth-time checks', () => {
  // Every entry stubbed: these stacks fail (or are inspected) before the handlers matter.
  const stubs = Object.fromEntries(functionNames.map((n) => [n, 'test/fixtures/infra/stub-handler.ts']));

  it('fails with the path and the command when the render image directory has no Dockerfile', () => {
    expect(() => synthStack({ entries: stubs, renderImageDirectory: 'dist/does-not-exist' })).toThrow(
      /dist\/does-not-exist\/Dockerfile not found: run `npm run bundle:render`/,
    );
    expect(() => synthStack({ entries: stubs, prepareImageDirectory: 'dist/no-prepare' })).toThrow(
      /dist\/no-prepare\/Dockerfile not found: run `npm run bundle:prepare`/,
    );
  });

  it('fails with the command when a layer has not been built', () => {
    expect(() => synthStack({ entries: stubs, layerDirectories: { media: 'layers/media/not-built' } })).toThrow(/npm run build:layers/);
  });

  it('warns and skips the upload when a bot preview image is missing', () => {
    const { stack: bare } = synthStack({ entries: stubs, botArtworkDirectory: 'test/fixtures/infra/no-artwork' });
    Annotations.fromStack(bare).hasWarning('/VidbotStack/BotSeed', Match.stringLikeRegexp('preview.png not found'));
    Template.fromStack(bare).resourceCountIs('Custom::CDKBucketDeployment', 0);
  });
});
