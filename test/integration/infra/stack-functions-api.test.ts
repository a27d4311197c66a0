/**
 * The synthesised CDK stack, against infra/wiring.ts: the functions (runtime, memory, logs, environment, layers),
 * least privilege in their roles, and the REST API (routes, authorizer, stage, usage plan, error responses).
 */
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { envNames } from '#commons/env-names';
import { objectAccess } from '#infra/constructs/vidbot-function.ts';
import {
  api,
  apiMethods,
  apiResourcePath,
  assemblyLeaseSeconds,
  type FunctionName,
  functions,
  type QueueName,
  queues,
  routes,
  speechEngines,
  type TableName,
} from '#infra/wiring.ts';
import {
  actionsOf,
  decl,
  fnId,
  functionNames,
  idOf,
  pascal,
  resources,
  stack,
  statementsOf,
  tableLogicalIds,
  tablesIn,
  template,
  useSynthesizedStack,
  WRITE_ACTIONS,
  XRAY_ACTIONS,
} from '../../support/stack-template.ts';

useSynthesizedStack();

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

  it("gives render, assemble, the fetcher and a recording's preparation the /tmp their media needs, and the others Lambda's default", () => {
    const media = { render: 2048, assemble: 6144, fetcher: 1024, prepareFootage: 2048 } as const;
    for (const [name, size] of Object.entries(media))
      expect(resources[fnId(name as FunctionName)]!.Properties.EphemeralStorage).toEqual({ Size: size });
    for (const name of functionNames.filter((n) => !(n in media))) {
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
        // A queue consumer learns its queue's receive limit (its last attempt fails the job for good), its queue's
        // name (the queue dimension of its metrics) and visibility timeout (the longest backoff of a retry).
        ...(decl(name).trigger === 'queue' ? [envNames.maxReceiveCount, envNames.consumedQueue, envNames.consumedQueueVisibilitySeconds] : []),
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
    expect(resources[fnId('render')]!.Properties.Environment.Variables.CONSUMED_QUEUE_VISIBILITY_SECONDS).toBe(
      String(queues.render.visibilityTimeoutSeconds),
    );
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
      // 'name' (the console) is told the bucket's name and granted nothing.
      const { access, deletes, puts } =
        declared === undefined || declared === 'name' ? { access: undefined, deletes: [], puts: [] } : objectAccess(declared);
      const resourcesOf = (action: string) =>
        statements.filter((s) => actionsOf(s).includes(action)).flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]));
      // A statement's resources are a set: CDK may list merged prefixes in any order.
      const byJson = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));
      const onBucket = (patterns: string[]) => patterns.map((pattern) => ({ 'Fn::Join': ['', [bucketArn, `/${pattern}`]] })).sort(byJson);
      expect([...resourcesOf('s3:DeleteObject*')].sort(byJson), name).toEqual(onBucket(deletes));
      const written = access !== undefined && access !== 'read' ? ['*', ...puts] : puts;
      expect([...resourcesOf('s3:PutObject')].sort(byJson), name).toEqual(onBucket(written));
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
    // The sweeper only deletes a failed bot's uploads (its PUT's files and its upload's file): no read, no put.
    expect(objectAccess(functions.sweeper.bucket)).toEqual({ access: undefined, deletes: ['uploads/*', 'upload-files/*'], puts: [] });
    // DELETE /v1/bot/{uid} removes a bot's uploads, its upload's file, look and retired looks; nothing else.
    expect(objectAccess(functions.bots.bucket).deletes).toEqual(['looks/*', 'retired-looks/*', 'uploads/*', 'upload-files/*']);
    // The fetch stage reads (is a file there already?) and writes only what it brings, under fetched/.
    expect(objectAccess(functions.fetcher.bucket)).toEqual({ access: 'read', deletes: [], puts: ['fetched/*'] });
    expect(() => objectAccess({ access: 'read', put: ['fetched'] })).toThrow(
      /bucket.put prefixes must be plain key prefixes ending in "\/", got "fetched"/,
    );
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
