import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../support/harness.ts';

const exec = promisify(execFile);
let app: TestRuntime;

// Revocation must be visible at once here, so the gateway does not cache authorizer decisions in this test.
beforeAll(async () => {
  app = await startTestRuntime({ authorizerCacheTtlSeconds: 0, consumers: false });
}, 120_000);
afterAll(() => app?.stop());

const keys = async (...args: string[]) =>
  (
    await exec(process.execPath, ['--import', 'tsx', 'infra/scripts/keys.ts', ...args, '--data-dir', app.dataDir], {
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    })
  ).stdout;

it('npm run keys issues a key for a new account against the running service, lists it, and revokes it', async () => {
  const created = await keys('create', '--name', 'acme');
  const apiKey = /API key\s+(vb_\S+)/.exec(created)?.[1];
  const keyId = /key id\s+(key_\S+)/.exec(created)?.[1];
  expect(apiKey).toMatch(/^vb_[A-Za-z0-9_-]{43}$/);
  expect(created).toMatch(/webhook secret\s+whsec_/);

  const account = await fetch(`${app.baseUrl}/v1/account`, { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(account.status).toBe(200);
  expect(await account.json()).toMatchObject({ name: 'acme', key_id: keyId, videos: { total: 0 } });

  const listed = await keys('list');
  expect(listed).toContain(keyId);
  expect(listed).not.toContain(apiKey); // keys are stored hashed: the list cannot show them

  expect(await keys('revoke', '--key-id', keyId!)).toContain(`Revoked ${keyId}`);
  const after = await fetch(`${app.baseUrl}/v1/account`, { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(after.status).toBe(401);
  expect(await keys('list')).toMatch(new RegExp(`${keyId}.*REVOKED`));
}, 60_000);
