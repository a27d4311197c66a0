import { RemovalPolicy } from 'aws-cdk-lib';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

export interface AlarmTopicProps {
  /**
   * Email address subscribed to the topic.
   * @default - no subscription
   */
  readonly email?: string;
}

/** The encrypted SNS topic every alarm of the service notifies. */
export class AlarmTopic extends Construct {
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: AlarmTopicProps = {}) {
    super(scope, id);
    const key = new Key(this, 'Key', {
      description: 'Encrypts the vidbot alarm topic',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // CloudWatch publishes alarms to the encrypted topic, so it needs the key (the AWS-managed SNS key would not allow it).
    key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new Topic(this, 'Topic', { displayName: 'vidbot alarms', masterKey: key, enforceSSL: true });
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
  }
}
