import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { killProcessesUsing } from '#infra/local/function-host.ts';
import { evaluatePolicy, wildcardMatch } from '#infra/local/iam-policy.ts';
import { successfulMessages } from '#infra/local/poller.ts';
import { buildResources, matchResource } from '#infra/local/routing.ts';
import * as wiring from '#infra/wiring.ts';

const arn = 'arn:aws:execute-api:us-east-1:000000000000:local/prod/POST/v1/bot';
const policy = (...statements: { Effect: string; Resource: string | string[]; Action?: string }[]) => ({
  principalId: 'p',
  policyDocument: { Version: '2012-10-17', Statement: statements.map((s) => ({ Action: 'execute-api:Invoke', ...s })) },
});

describe('authorizer policy evaluation', () => {
  it('matches IAM wildcards', () => {
    expect(wildcardMatch('arn:aws:execute-api:us-east-1:000000000000:local/*/*', arn)).toBe(true);
    expect(wildcardMatch('arn:aws:execute-api:us-east-1:000000000000:local/prod/GET/*', arn)).toBe(false);
    expect(wildcardMatch('arn:aws:execute-api:us-east-1:000000000000:local/prod/P?ST/v1/bot', arn)).toBe(true);
  });
  it('lets an explicit Deny win and denies when nothing matches', () => {
    expect(evaluatePolicy(policy({ Effect: 'Allow', Resource: '*' }), arn)).toBe('Allow');
    expect(evaluatePolicy(policy({ Effect: 'Allow', Resource: '*' }, { Effect: 'Deny', Resource: arn }), arn)).toBe('Deny');
    expect(evaluatePolicy(policy({ Effect: 'Allow', Resource: ['x', 'y'] }), arn)).toBe('Deny');
    expect(evaluatePolicy(policy({ Effect: 'Allow', Resource: '*', Action: 'execute-api:*' }), arn)).toBe('Allow');
    expect(() => evaluatePolicy({} as never, arn)).toThrow();
  });
});

describe('partial batch responses', () => {
  const ids = ['a', 'b', 'c'];
  it('follows Lambda: listed ids fail, an error or an unknown id fails the batch, no list means success', () => {
    expect(successfulMessages(ids, { error: false, result: { batchItemFailures: [{ itemIdentifier: 'b' }] } })).toEqual(['a', 'c']);
    expect(successfulMessages(ids, { error: false, result: { batchItemFailures: [] } })).toEqual(ids);
    expect(successfulMessages(ids, { error: false, result: null })).toEqual(ids);
    expect(successfulMessages(ids, { error: false, result: { batchItemFailures: [{ itemIdentifier: 'zzz' }] } })).toEqual([]);
    expect(successfulMessages(ids, { error: false, result: { batchItemFailures: [{ itemIdentifier: '' }] } })).toEqual([]);
    expect(successfulMessages(ids, { error: true })).toEqual([]);
  });
});

describe('routes of the real wiring', () => {
  it('builds API Gateway resources without conflicts, /v1/bot/ landing on /v1/bot', () => {
    const resources = buildResources(wiring.functions);
    expect(matchResource(resources, '/v1/bot/')?.resource.methods.get('POST')?.function).toBe('createVideo');
    expect(matchResource(resources, '/v1/bot/')?.resource.methods.get('GET')?.function).toBe('bots');
    expect(matchResource(resources, '/v1/bot/bot_ava')?.pathParameters).toEqual({ uid: 'bot_ava' });
    expect(matchResource(resources, '/health')?.resource.methods.get('GET')).toEqual({ function: 'meta', auth: false });
    expect(matchResource(resources, '/v1/video/abc/redeliver')?.resource.path).toBe('/v1/video/{id}/redeliver');
  });
});

describe('killProcessesUsing', () => {
  it("stops the processes still working in a discarded environment's /tmp, and no others", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'render-env-'));
    // The directory appears in each shell's command line, as a render's work dir does in ffmpeg's.
    const inside = spawn('sh', ['-c', `sleep 30 # ${dir}`]);
    const elsewhere = spawn('sh', ['-c', 'sleep 30 # elsewhere']);
    const signalOf = (child: ChildProcess) => new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await new Promise((r) => setTimeout(r, 100));
    try {
      expect(killProcessesUsing(dir)).toBe(1);
      expect(await signalOf(inside)).toBe('SIGKILL');
      expect(elsewhere.exitCode).toBeNull();
    } finally {
      elsewhere.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
