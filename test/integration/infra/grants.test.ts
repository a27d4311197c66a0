/**
 * Grants: every AWS call a function's code really makes is allowed by the IAM policies of that function's role
 * in the synthesised template. A missing grant fails here instead of as AccessDenied in production.
 *
 * The calls are not listed by hand: the real handlers of infra/wiring.ts run in this process against the local
 * emulators (dynalite, s3rver, fauxqs; Polly is answered by the recorder), driven through scenarios that reach
 * their branches (test/support/grants-run.ts and grants-scenarios.ts), and test/support/aws-calls.ts records
 * each SDK call (sends and presigned URLs) with the function it ran for. Each call becomes the IAM actions and
 * resources it needs (NEEDS in test/support/iam-needs.ts: an operation missing there fails the test), the
 * emulated names are mapped back to the template's resources, and each need is checked against the role's Allow
 * statements with IAM's wildcards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FunctionDecl, type FunctionName, functions } from '#infra/wiring.ts';
import type { AwsCall } from '../../support/aws-calls.ts';
import {
  arns,
  functionNames,
  invoked,
  logicalId,
  names,
  provisioned,
  recorder,
  resources,
  stack,
  startGrantsRun,
  stopGrantsRun,
} from '../../support/grants-run.ts';
import { runScenarios } from '../../support/grants-scenarios.ts';
import { allows, needsOf, statementsOfRole } from '../../support/iam-needs.ts';

beforeAll(async () => {
  await startGrantsRun();
  await runScenarios();
}, 300_000);

afterAll(stopGrantsRun);

describe('grants', () => {
  it('drives every function of the wiring', () => {
    expect([...invoked].sort()).toEqual([...functionNames].sort());
    // A function told only the bucket's name (`bucket: 'name'`) is granted nothing on it, so it owes no call.
    const declaresResources = (d: FunctionDecl) => Boolean(d.tables || d.queues || d.deadLetters || (d.bucket && d.bucket !== 'name') || d.polly);
    for (const name of functionNames) {
      if (declaresResources(functions[name] as FunctionDecl))
        expect(
          recorder.calls.some((c) => c.function === name),
          `${name} made no AWS call`,
        ).toBe(true);
    }
  });

  it('reaches the calls that only some branches make', () => {
    const made = (fn: FunctionName, operation: string, where: (c: AwsCall) => boolean = () => true) =>
      recorder.calls.some((c) => c.function === fn && c.operation === operation && where(c));
    expect(
      made('assemble', 'DeleteObject', (c) => c.input.Key.startsWith('outputs/')),
      'assemble discards an output',
    ).toBe(true);
    expect(
      made('videos', 'DeleteObject', (c) => c.input.Key.startsWith('outputs/')),
      'DELETE /v1/video removes the output',
    ).toBe(true);
    expect(
      made('videos', 'GetObject', (c) => c.presigned),
      'download links are presigned',
    ).toBe(true);
    expect(
      made('bots', 'GetObject', (c) => c.presigned),
      'bot previews are presigned',
    ).toBe(true);
    expect(made('render', 'CopyObject'), 'a temporary render is kept by copying').toBe(true);
    expect(
      made('fetcher', 'PutObject', (c) => c.input.Key.startsWith('fetched/')),
      'the fetch stage stores a logo it fetched',
    ).toBe(true);
    expect(
      made('render', 'SendMessage', (c) => c.input.QueueUrl === provisioned.fetch!.url),
      'the render hands a clip to the fetch stage',
    ).toBe(true);
    expect(
      made('inboxReceive', 'Query', (c) => c.input.IndexName === 'byTenant'),
      "the inbox reads the account's keys",
    ).toBe(true);
    expect(
      made('inboxReceive', 'PutItem', (c) => c.input.TableName === names.table('inbox')),
      'the inbox stores a verified delivery',
    ).toBe(true);
    expect(
      made('render', 'HeadObject', (c) => c.failedWith === 404),
      'a render cache miss',
    ).toBe(true);
    expect(made('render', 'SynthesizeSpeech'), 'Polly speech').toBe(true);
    expect(
      made('fetcher', 'SendMessage', (c) => c.input.QueueUrl === provisioned.notify!.url),
      'a failed fetch notifies',
    ).toBe(true);
    expect(made('notifier', 'ChangeMessageVisibility'), 'a failed delivery is rescheduled').toBe(true);
    expect(
      made('createVideo', 'GetItem', (c) => c.input.TableName === names.table('idempotency')),
      'the idempotency store',
    ).toBe(true);
    expect(
      made('sweeper', 'ReceiveMessage', (c) => c.input.QueueUrl === provisioned.render!.dlqUrl),
      'dead letters are read',
    ).toBe(true);
    expect(made('sweeper', 'UpdateItem'), 'the sweeper ends or postpones videos').toBe(true);
    expect(
      made('sweeper', 'ReceiveMessage', (c) => c.input.QueueUrl === provisioned.prepare!.dlqUrl),
      'dead-lettered preparations are read',
    ).toBe(true);
    expect(
      made('sweeper', 'UpdateItem', (c) => c.input.TableName === names.table('accountBots')),
      'the sweeper fails a bot',
    ).toBe(true);
    expect(
      made('sweeper', 'Query', (c) => c.input.IndexName === 'unsentEvents'),
      "the sweeper looks for bots' lost events",
    ).toBe(true);
    expect(
      made('sweeper', 'DeleteObject', (c) => c.input.Key.startsWith('uploads/')),
      "a failed bot's uploads are removed",
    ).toBe(true);
    expect(
      made('bots', 'PutObject', (c) => c.input.Key.startsWith('uploads/')),
      'a PUT stores its images',
    ).toBe(true);
    expect(
      made('bots', 'DeleteObject', (c) => c.input.Key.startsWith('looks/')),
      'DELETE /v1/bot/{uid} removes the look',
    ).toBe(true);
    expect(
      made('bots', 'DeleteObject', (c) => c.input.Key.startsWith('retired-looks/')),
      '…and the looks it retired',
    ).toBe(true);
    expect(
      made('prepare', 'CopyObject', (c) => c.input.Key.startsWith('retired-looks/')),
      'a replacement retires the old look',
    ).toBe(true);
    expect(
      made('render', 'GetObject', (c) => c.input.Key.startsWith('retired-looks/')),
      'a clip accepted before a replacement renders with the retired look',
    ).toBe(true);
    expect(
      made('prepare', 'DeleteObject', (c) => c.input.Key.startsWith('uploads/')),
      'the preparation removes the uploads',
    ).toBe(true);
    expect(
      made('prepare', 'UpdateItem', (c) => c.input.TableName === names.table('accountBots')),
      'the preparation settles the bot',
    ).toBe(true);
    expect(
      made('notifier', 'GetItem', (c) => c.input.TableName === names.table('accountBots')),
      'a bot event reads its bot',
    ).toBe(true);
    expect(
      made('notifier', 'UpdateItem', (c) => c.input.TableName === names.table('accountBots')),
      "a bot event's attempt is recorded on the bot",
    ).toBe(true);
    expect(
      made('bots', 'SendMessage', (c) => c.input.QueueUrl === provisioned.notify!.url),
      "a bot's event is redelivered on request",
    ).toBe(true);
    expect(
      made('render', 'GetObject', (c) => c.input.Key.startsWith('looks/')),
      'a render fetches a prepared look',
    ).toBe(true);
    expect(
      made('createVideo', 'GetItem', (c) => c.input.TableName === names.table('accountBots')),
      'a clip may name an account bot',
    ).toBe(true);
  });

  it.each(functionNames)('%s: its role grants every call its code makes', (name) => {
    const role = stack.functions[name].role!;
    const statements = statementsOfRole(resources, logicalId(role));
    const missing = new Set<string>();
    for (const call of recorder.calls.filter((c) => c.function === name)) {
      for (const need of needsOf(call, arns)) {
        if (!allows(resources, statements, need)) {
          missing.add(
            `${name} needs ${need.action} on ${need.resource} (${call.service} ${call.operation}${call.presigned ? ', presigned' : ''}), which its role does not grant`,
          );
        }
      }
    }
    expect([...missing]).toEqual([]);
  });

  it('can fail: a call no role grants is reported, an unknown operation is refused', () => {
    const statements = statementsOfRole(resources, logicalId(stack.functions.authorizer.role!));
    const keysTable = arns.table(names.table('keys'));
    expect(allows(resources, statements, { action: 'dynamodb:GetItem', resource: keysTable })).toBe(true);
    expect(allows(resources, statements, { action: 'dynamodb:PutItem', resource: keysTable })).toBe(false);
    expect(allows(resources, statements, { action: 'dynamodb:GetItem', resource: arns.table(names.table('videos')) })).toBe(false);
    const bots = statementsOfRole(resources, logicalId(stack.functions.bots.role!));
    expect(allows(resources, bots, { action: 's3:DeleteObject', resource: arns.object(names.bucket, 'outputs/a/b.mp4') })).toBe(false);
    expect(() => needsOf({ function: 'x', service: 'S3', operation: 'PutBucketPolicy', input: {}, presigned: false }, arns)).toThrow(/does not know/);
  });
});
