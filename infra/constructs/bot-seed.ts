import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { marshall } from '@aws-sdk/util-dynamodb';
import { Annotations, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { CfnPolicy } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { Construct, type IConstruct } from 'constructs';
import { type Bot, botPreviewKey } from '#domain/bot';

export interface BotSeedProps {
  /** The bots to seed (BUILT_IN_BOTS). */
  readonly bots: readonly Bot[];
  /** The bots table. */
  readonly table: ITable;
  /** The media bucket, receiving the preview images. */
  readonly bucket: IBucket;
  /**
   * Folder holding `<look>/preview.png` for each bot, relative to `projectRoot`.
   * @default 'functions/render/bots'
   */
  readonly artworkDirectory?: string;
  /** @default process.cwd() */
  readonly projectRoot?: string;
}

/**
 * How cdk-nag names a CloudFormation reference inside a finding id (`AwsSolutions-IAM5[Resource::<X.Arn>/*]`):
 * Ref as <Id>, GetAtt as <Id.Attr>, Join joined, Sub with ${} as <>. Acknowledgements must match it exactly;
 * the nag test fails should it ever render them otherwise.
 */
function nagResourceName(node: unknown): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/\}/g, '>');
  const value = node as Record<string, any>;
  if (value['Fn::Join']) return (value['Fn::Join'][1] as unknown[]).map(nagResourceName).join(value['Fn::Join'][0]);
  if (value['Fn::Sub']) return nagResourceName(value['Fn::Sub']);
  if (value['Fn::GetAtt']) return `<${nagResourceName(value['Fn::GetAtt'][0])}.${nagResourceName(value['Fn::GetAtt'][1])}>`;
  if (value['Fn::ImportValue']) return nagResourceName(value['Fn::ImportValue']);
  if (value.Ref) return `<${nagResourceName(value.Ref)}>`;
  return JSON.stringify(node);
}

/**
 * Writes the built-in bots to the bots table on every deploy that changes them (the items are the domain `Bot`
 * objects as they are), and uploads each bot's preview image to `bots/<look>/preview.png`.
 */
export class BotSeed extends Construct {
  constructor(scope: Construct, id: string, props: BotSeedProps) {
    super(scope, id);
    if (props.bots.length > 25) throw new Error(`batchwriteitem takes at most 25 items, got ${props.bots.length} bots`);
    this.writeBots(props);

    const projectRoot = props.projectRoot ?? process.cwd();
    const artwork = props.artworkDirectory ?? 'functions/render/bots';
    const artworkPath = resolve(projectRoot, artwork);
    const present = this.botsWithPreviews(props.bots, artwork, artworkPath);
    if (present.length === 0) return;
    this.uploadPreviews(present, artworkPath, props.bucket);
  }

  /** The bots table's items, written by a custom resource on every deploy that changes them. */
  private writeBots(props: BotSeedProps): void {
    const write = {
      service: 'DynamoDB',
      action: 'batchWriteItem',
      parameters: {
        RequestItems: {
          [props.table.tableName]: props.bots.map((bot) => ({ PutRequest: { Item: marshall(bot, { removeUndefinedValues: true }) } })),
        },
      },
      // The items are in the parameters, so a change to a bot updates this resource and re-runs the write.
      physicalResourceId: PhysicalResourceId.of('vidbot-built-in-bots'),
    };
    new AwsCustomResource(this, 'Bots', {
      onCreate: write,
      onUpdate: write,
      // Removing the stack keeps the (retained) table and its bots.
      policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: [props.table.tableArn] }),
      installLatestAwsSdk: false,
    });
    // The provider function AwsCustomResource shares across the stack.
    const provider = Stack.of(this).node.tryFindChild(`AWS${AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`);
    if (provider) {
      Validations.of(provider).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: "CDK's AwsCustomResource provider (seeds the bots at deploy); the managed policy only lets it write its logs.",
      });
    }
  }

  /** The bots whose preview image exists (a warning for each that has none). */
  private botsWithPreviews(bots: readonly Bot[], artwork: string, artworkPath: string): Bot[] {
    const missing = bots.filter((bot) => !existsSync(join(artworkPath, bot.look, 'preview.png')));
    for (const bot of missing) {
      Annotations.of(this).addWarningV2(
        'vidbot:missing-bot-preview',
        `${artwork}/${bot.look}/preview.png not found: the preview image of bot ${bot.uid} is not uploaded`,
      );
    }
    const present = bots.filter((bot) => !missing.includes(bot));
    // The upload below lays files out as bots/<look>/preview.png; the domain must agree.
    for (const bot of present) {
      if (botPreviewKey(bot) !== `bots/${bot.look}/preview.png`) throw new Error(`botPreviewKey() changed to ${botPreviewKey(bot)}; update BotSeed`);
    }
    return present;
  }

  /** The preview images uploaded under bots/ of the media bucket. */
  private uploadPreviews(present: Bot[], artworkPath: string, bucket: IBucket): void {
    new BucketDeployment(this, 'Previews', {
      // Only the preview images of the seeded bots, keyed as botPreviewKey() says.
      sources: [
        Source.asset(artworkPath, {
          exclude: ['**', ...present.flatMap((bot) => [`!${bot.look}`, `!${bot.look}/preview.png`])],
        }),
      ],
      destinationBucket: bucket,
      destinationKeyPrefix: 'bots/',
      // Other objects under bots/ are left alone.
      prune: false,
      retainOnDelete: true,
    });
    // The handler BucketDeployment shares across the stack: CDK's own, with CDK's grants.
    const handler = Stack.of(this).node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (handler) this.acknowledgeDeploymentHandler(handler);
  }

  private acknowledgeDeploymentHandler(handler: IConstruct): void {
    const why = "CDK's BucketDeployment handler (uploads the bot previews at deploy)";
    const findings: [string, string][] = [
      ['AwsSolutions-L1', `${why}; its runtime is chosen by aws-cdk-lib.`],
      [
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        `${why}; the managed policy only lets it write its logs.`,
      ],
      ['AwsSolutions-IAM5[Action::s3:GetObject*]', `${why}: CDK grantRead on the asset and media buckets.`],
      ['AwsSolutions-IAM5[Action::s3:GetBucket*]', `${why}: CDK grantRead on the asset and media buckets.`],
      ['AwsSolutions-IAM5[Action::s3:List*]', `${why}: CDK grantRead on the asset and media buckets.`],
      ['AwsSolutions-IAM5[Action::s3:Abort*]', `${why}: CDK grantReadWrite on the media bucket.`],
      ['AwsSolutions-IAM5[Action::s3:DeleteObject*]', `${why}: CDK grantReadWrite on the media bucket (prune is off, so it deletes nothing).`],
    ];
    // Its object wildcards (the CDK asset bucket, <media bucket>/*) depend on the environment, so they are read
    // from its policy, rendered the way cdk-nag renders them.
    const policy = handler.node.tryFindChild('ServiceRole')?.node.tryFindChild('DefaultPolicy')?.node.defaultChild as CfnPolicy | undefined;
    const statements: { Resource?: unknown }[] = policy ? (Stack.of(this).resolve(policy.policyDocument).Statement ?? []) : [];
    for (const resource of statements.flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]))) {
      const flat = nagResourceName(resource);
      if (flat.includes('*'))
        findings.push([
          `AwsSolutions-IAM5[Resource::${flat}]`,
          `${why} reads the staged zip from the CDK asset bucket and writes under bots/ of the media bucket.`,
        ]);
    }
    for (const [id, reason] of findings) Validations.of(handler).acknowledge({ id, reason });
  }
}
