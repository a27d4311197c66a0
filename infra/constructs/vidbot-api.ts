import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  EndpointType,
  IdentitySource,
  type IResource,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RequestAuthorizer,
  ResponseType,
  RestApi,
  type ThrottleSettings,
  type UsagePlan,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { type ApiMethod, type GatewayResponseDecl, api as wiringApi } from '../wiring.ts';

export interface ApiRoute extends ApiMethod {
  /** The function serving the method. */
  readonly handler: IFunction;
}

export interface VidbotApiProps {
  /** Every API Gateway method of the wiring (its `apiMethods()`), with its function. */
  readonly routes: readonly ApiRoute[];
  /** The bearer-key authorizer function. */
  readonly authorizer: IFunction;
  /**
   * How long API Gateway caches an authorizer decision per Authorization header value.
   * @default Duration.minutes(5)
   */
  readonly authorizerCacheTtl?: Duration;
  /**
   * Steady-state requests per second allowed on the stage (all callers together).
   * @default 50
   */
  readonly throttlingRateLimit?: number;
  /**
   * Burst of requests allowed on the stage.
   * @default 100
   */
  readonly throttlingBurstLimit?: number;
  /**
   * Each API key's own rate: the usage plan every vidbot key's API Gateway key belongs to.
   * @default - the wiring's api.usagePlan
   */
  readonly keyThrottle?: ThrottleSettings;
}

/** The stage name. The paths already carry the version (/v1), so the stage does not. */
const STAGE_NAME = wiringApi.stageName;

const JSON_CONTENT_TYPE = "'application/json'";

/** Construct ids of the gateway responses: stable, since renaming one replaces the resource. */
const GATEWAY_RESPONSE_IDS = {
  UNAUTHORIZED: 'Unauthorized',
  ACCESS_DENIED: 'AccessDenied',
  MISSING_AUTHENTICATION_TOKEN: 'NotFound',
  THROTTLED: 'Throttled',
  QUOTA_EXCEEDED: 'QuotaExceeded',
  INVALID_API_KEY: 'InvalidApiKey',
  REQUEST_TOO_LARGE: 'RequestTooLarge',
  DEFAULT_4XX: 'Default4xx',
  DEFAULT_5XX: 'Default5xx',
} as const satisfies Record<keyof typeof wiringApi.gatewayResponses, string>;

/** The handlers' error body shape (functions/commons/http.ts), for responses API Gateway makes itself. */
const errorBody = (code: string, message: string) => JSON.stringify({ error: { code, message } });

/**
 * The public REST API: one Lambda proxy integration per route of the wiring, every route behind the bearer-key
 * authorizer unless it says `auth: 'none'`, and API Gateway's own error responses in the handlers' JSON shape.
 * Request validation is the handlers' job (they accept JSON, urlencoded and multipart bodies).
 */
export class VidbotApi extends Construct {
  readonly api: RestApi;
  readonly authorizer: RequestAuthorizer;
  readonly accessLogs: LogGroup;
  /** The plan that throttles each API key; `npm run keys` adds every vidbot key's API Gateway key to it. */
  readonly usagePlan: UsagePlan;

  constructor(scope: Construct, id: string, props: VidbotApiProps) {
    super(scope, id);

    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.api = new RestApi(this, 'Api', {
      restApiName: 'vidbot',
      description: 'vidbot: bots that speak your text, rendered to video',
      endpointTypes: [EndpointType.REGIONAL],
      // Multipart bodies (curl -F) arrive base64-encoded, byte for byte; the handlers decode isBase64Encoded.
      binaryMediaTypes: [...wiringApi.binaryMediaTypes],
      // Callers send only their bearer key; the authorizer names the key's usage-plan key (usageIdentifierKey).
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      // Stage logging needs the account-level CloudWatch role; create it (one per account and region).
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: STAGE_NAME,
        tracingEnabled: true,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: true,
        // Default for every method of the stage. A sensible start for a new service, well under the account's
        // regional limit (10,000 rps) so one runaway client cannot starve the other APIs in the account; each
        // create fans out to renders, so raising it is a capacity decision, not a free knob.
        throttlingRateLimit: props.throttlingRateLimit ?? 50,
        throttlingBurstLimit: props.throttlingBurstLimit ?? 100,
      },
    });

    this.authorizer = new RequestAuthorizer(this, 'BearerKeyAuthorizer', {
      handler: props.authorizer,
      identitySources: [IdentitySource.header(wiringApi.authorizer.identityHeader)],
      // Cached per Authorization value. The authorizer's policy must allow a wildcard over the stage's
      // methods and paths, so that one cached decision covers every route (`/v1/bot` and `/v1/bot/` included).
      resultsCacheTtl: props.authorizerCacheTtl ?? Duration.seconds(wiringApi.authorizer.cacheTtlSeconds),
    });

    this.addGatewayResponses();
    this.addRoutes(props.routes);

    // One plan for every key: the stage's throttle is shared by all callers, this one is each key's own.
    this.usagePlan = this.api.addUsagePlan('KeyUsagePlan', {
      name: 'vidbot-keys',
      description: 'Each vidbot API key: its request rate (see infra/wiring.ts api.usagePlan)',
      throttle: props.keyThrottle ?? { ...wiringApi.usagePlan },
      apiStages: [{ api: this.api, stage: this.api.deploymentStage }],
    });

    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        'Requests are validated in the handlers, which accept JSON, urlencoded and multipart bodies (and the lenient clips syntax of existing callers) and answer with precise per-field errors; an API Gateway model cannot express that.',
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG3',
      reason:
        'No WAF web ACL by default: callers are authenticated by API key, the stage is throttled, and a web ACL costs money per month; attach one per deployment if needed.',
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-COG4',
      reason:
        'Callers are machines with bearer API keys (Authorization: Bearer <key>), checked by the Lambda request authorizer against the keys table; there are no Cognito users.',
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason: "The account-level role API Gateway needs to write stage access and execution logs; AWS's managed policy is the documented one.",
    });
  }

  private addRoutes(routes: readonly ApiRoute[]): void {
    const integrations = new Map<IFunction, LambdaIntegration>();
    // One method per (method, resource): `/v1/bot` and `/v1/bot/` are one (apiMethods merged them).
    for (const route of routes) {
      const path = route.resourcePath;

      let integration = integrations.get(route.handler);
      if (!integration) {
        integration = new LambdaIntegration(route.handler, { proxy: true });
        integrations.set(route.handler, integration);
      }
      const resource: IResource = path === '/' ? this.api.root : this.api.root.resourceForPath(path);
      const method = resource.addMethod(
        route.method,
        integration,
        // An authorised method requires an API key, which the authorizer supplies: that puts it under the usage plan.
        route.auth
          ? { authorizer: this.authorizer, authorizationType: AuthorizationType.CUSTOM, apiKeyRequired: true }
          : { authorizationType: AuthorizationType.NONE },
      );
      if (!route.auth) {
        Validations.of(method).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason: `${route.method} ${path} is public by design (auth: 'none' in infra/wiring.ts, which says why: the health check, the console page that asks for a key, the webhook inbox whose deliveries authenticate by their signature).`,
        });
      }
    }
  }

  /** The answers API Gateway makes itself, as the wiring declares them (the local gateway gives the same). */
  private addGatewayResponses(): void {
    for (const [type, response] of Object.entries(wiringApi.gatewayResponses) as [keyof typeof GATEWAY_RESPONSE_IDS, GatewayResponseDecl][]) {
      // Header values of gateway responses are mapping expressions: a literal is single-quoted.
      const headers = Object.fromEntries(Object.entries(response.headers ?? {}).map(([name, value]) => [name, `'${value}'`]));
      this.api.addGatewayResponse(GATEWAY_RESPONSE_IDS[type], {
        type: ResponseType.of(type),
        statusCode: response.status === undefined ? undefined : String(response.status),
        responseHeaders: { 'Content-Type': JSON_CONTENT_TYPE, ...headers },
        templates: { 'application/json': errorBody(response.code, response.message) },
      });
    }
  }
}
