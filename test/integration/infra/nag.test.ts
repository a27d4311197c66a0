import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthStack } from '../../support/synth.ts';

interface Violation {
  ruleName: string;
  severity: string;
  violatingConstructs: { constructPath: string }[];
}
interface Report {
  pluginReports: { pluginName: string; conclusion: string; violations: Violation[] }[];
}

/**
 * cdk-nag 3 is a policy-validation plugin: findings are not annotations but entries of the cloud assembly's
 * validation-report.json, and an unacknowledged error makes app.synth() throw (under NODE_ENV=test, with the
 * report in the message).
 */
function synthWithNag(app: App): { report: Report; error?: Error } {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  try {
    const assembly = app.synth();
    return { report: JSON.parse(readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8')) };
  } catch (error) {
    return { report: { pluginReports: [] }, error: error as Error };
  }
}

describe('cdk-nag AwsSolutions', () => {
  let result: ReturnType<typeof synthWithNag>;

  beforeAll(() => {
    const { app } = synthStack();
    result = synthWithNag(app);
  }, 120_000);

  it('synthesises with no unacknowledged AwsSolutions errors or warnings', () => {
    expect(result.error?.message).toBeUndefined();
    const findings = result.report.pluginReports
      .filter((r) => r.pluginName === 'AwsSolutions')
      .flatMap((r) => r.violations)
      .map((v) => `${v.severity} ${v.ruleName} at ${v.violatingConstructs.map((c) => c.constructPath).join(', ')}`);
    expect(findings).toEqual([]);
  });

  it('really runs the checks (an unencrypted, non-TLS bucket fails synth)', () => {
    const app = new App();
    new Bucket(new Stack(app, 'Bad'), 'Plain');
    const { error } = synthWithNag(app);
    expect(error?.message).toMatch(/AwsSolutions-S10/);
  });
});
