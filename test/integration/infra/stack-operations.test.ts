/**
 * The synthesised CDK stack, against infra/wiring.ts: the queues and their alarms, observability (tracing, alarms,
 * the dashboard), schedules, storage, the seed and outputs, and the checks that fail or warn at synth time.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { describe, expect, it } from 'vitest';
import { dimensionNames, METRICS_NAMESPACE, metricNames, SERVICE_FAULT_CODES, SERVICE_NAME } from '#commons/metric-names';
import { BUILT_IN_BOTS } from '#domain/bot';
import { ServiceAlarms } from '#infra/constructs/service-alarms.ts';
import { WorkQueue } from '#infra/constructs/work-queue.ts';
import { assemblyLeaseSeconds, type FunctionDecl, functions, observability, queues, type TableName, tables } from '#infra/wiring.ts';
import { resourceList } from '../../support/stack-summary.ts';
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
  template,
  useSynthesizedStack,
  XRAY_ACTIONS,
} from '../../support/stack-template.ts';
import { synthStack } from '../../support/synth.ts';

useSynthesizedStack();

describe('the resource list', () => {
  // A resource added, removed or renamed (a new logical id replaces it in production) shows here first: re-record
  // with STACK_RESOURCES=record only for an intended change, and read the diff. docs/operations.md compares whole
  // templates between two commits.
  const recorded = join(import.meta.dirname, '../../fixtures/infra/stack-resources.txt');
  it('is the recorded one: every logical id and type', () => {
    const now = resourceList({ Resources: resources });
    if (process.env.STACK_RESOURCES === 'record') writeFileSync(recorded, now);
    expect(now).toBe(readFileSync(recorded, 'utf8'));
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
      // Pages may read presigned links (the console's captions track) and PUT a file to a presigned upload link
      // (which is signed for one key, type and size); no credentials, no other header.
      CorsConfiguration: {
        CorsRules: [{ AllowedMethods: ['GET', 'HEAD', 'PUT'], AllowedHeaders: ['Content-Type'], AllowedOrigins: ['*'], MaxAge: 3600 }],
      },
    });
    const rules = resources[mediaId]!.Properties.LifecycleConfiguration.Rules;
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ TagFilters: [{ Key: 'retention', Value: 'temporary' }], ExpirationInDays: 7, Status: 'Enabled' }),
        expect.objectContaining({ Prefix: 'uploads/', ExpirationInDays: 1 }),
        expect.objectContaining({ Id: 'ExpireUploadFiles', Prefix: 'upload-files/', ExpirationInDays: 2, Status: 'Enabled' }),
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
