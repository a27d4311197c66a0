import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { VidbotStack } from '../stack.ts';

/**
 * The CDK app: `npx cdk synth` / `npx cdk deploy` (cdk.json runs this file with tsx).
 * Context: `-c alarmEmail=ops@example.com` subscribes an address to the dead-letter alarms;
 * `-c renderImageDirectory=...` overrides where `npm run bundle:render` put the render image, `-c prepareImageDirectory=...`
 * where `npm run bundle:prepare` put the prepare image.
 */
const app = new App();

const alarmEmail = app.node.tryGetContext('alarmEmail') as string | undefined;
const renderImageDirectory = app.node.tryGetContext('renderImageDirectory') as string | undefined;
const prepareImageDirectory = app.node.tryGetContext('prepareImageDirectory') as string | undefined;
const logLevel = app.node.tryGetContext('logLevel') as string | undefined;

new VidbotStack(app, 'VidbotStack', {
  description: 'vidbot: serverless video generation (API Gateway, Lambda, SQS, DynamoDB, S3)',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  alarmEmail,
  renderImageDirectory,
  prepareImageDirectory,
  logLevel,
});

// AWS Solutions best-practice checks; every accepted finding is acknowledged where it arises, with a reason.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
