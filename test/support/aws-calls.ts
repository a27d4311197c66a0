import { AsyncLocalStorage } from 'node:async_hooks';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { SynthesizeSpeechCommand } from '@aws-sdk/client-polly';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { SendMessageCommand } from '@aws-sdk/client-sqs';

/** One AWS API call made by a function's code, as the SDK was asked to make it. */
export interface AwsCall {
  /** The wiring function on whose behalf the call ran. */
  function: string;
  /** SDK client without "Client": S3, DynamoDB, SQS, Polly. */
  service: string;
  /** SDK command without "Command": GetObject, UpdateItem (lib-dynamodb commands arrive as the low-level ones). */
  operation: string;
  input: Record<string, any>;
  /** A presigned URL (@aws-sdk/s3-request-presigner): signed here, used by whoever holds the link. */
  presigned: boolean;
  /** The HTTP status the call failed with, if it failed (a 404 of HeadObject is still an authorised call). */
  failedWith?: number;
}

type Handler = (args: { input: Record<string, any> }) => Promise<{ output: any; response: unknown }>;
interface ResolveContext {
  clientName: string;
  commandName: string;
}
type Resolve = (this: unknown, clientStack: unknown, configuration: unknown, options: unknown, context: ResolveContext) => Handler;

/**
 * Records every AWS SDK call made inside {@link AwsCallRecorder.as}, attributed to the function named there.
 *
 * It wraps the one place every SDK v3 command goes through, `Command.resolveMiddlewareWithContext` of
 * @smithy/core: `client.send` and `getSignedUrl` both build the command's handler there, so sends and presigned
 * URLs are seen alike, whichever client instance (a function's singleton, Powertools' own, Polly's) runs them.
 * Nothing in functions/ changes. Calls outside `as` (the test's own set-up and checks) are not recorded.
 */
export class AwsCallRecorder {
  readonly calls: AwsCall[] = [];
  private readonly current = new AsyncLocalStorage<string>();
  private readonly before: Array<(call: AwsCall) => Promise<void> | void> = [];
  private readonly stubs = new Map<string, (call: AwsCall) => unknown>();
  private restore?: () => void;

  install(): this {
    const owner = commandBase();
    const original = owner.resolveMiddlewareWithContext as Resolve;
    const recorder = this;
    owner.resolveMiddlewareWithContext = function (this: unknown, clientStack, configuration, options, context) {
      const handler = original.call(this, clientStack, configuration, options, context);
      const service = context.clientName.replace(/Client$/, '');
      const operation = context.commandName.replace(/Command$/, '');
      return async (args) => {
        const fn = recorder.current.getStore();
        if (!fn) return handler(args);
        const call: AwsCall = { function: fn, service, operation, input: args.input, presigned: false };
        recorder.calls.push(call);
        const stub = recorder.stubs.get(service);
        if (stub) return { output: await stub(call), response: {} };
        // Outside the function's context: what a hook does (another actor's writes) is not the function's call.
        for (const hook of recorder.before) await recorder.current.exit(() => hook(call));
        try {
          const result = await handler(args);
          call.presigned = Boolean(result?.output?.presigned);
          return result;
        } catch (error) {
          call.failedWith = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
          throw error;
        }
      };
    } satisfies Resolve;
    this.restore = () => {
      owner.resolveMiddlewareWithContext = original;
    };
    return this;
  }

  uninstall() {
    this.restore?.();
  }

  /** Runs `work` as the function `name`: every SDK call it makes, however deep, is recorded as that function's. */
  as<T>(name: string, work: () => Promise<T>): Promise<T> {
    return this.current.run(name, work);
  }

  /** Runs `hook` before each recorded call goes out (to interleave what another actor does meanwhile). */
  beforeCall(hook: (call: AwsCall) => Promise<void> | void) {
    this.before.push(hook);
  }

  /** Answers a service that has no local emulator (Polly) instead of calling it; the call is still recorded. */
  stub(service: string, answer: (call: AwsCall) => unknown) {
    this.stubs.set(service, answer);
  }
}

/**
 * The class that owns `resolveMiddlewareWithContext`: smithy's `Command`, found from real commands so the test
 * does not import a transitive dependency. Every service the functions use must share it, or calls would escape.
 */
function commandBase(): { resolveMiddlewareWithContext: unknown } {
  const owners = [GetObjectCommand, GetItemCommand, SendMessageCommand, SynthesizeSpeechCommand].map((command) => {
    let proto = command.prototype as object | null;
    while (proto && !Object.hasOwn(proto, 'resolveMiddlewareWithContext')) proto = Object.getPrototypeOf(proto);
    if (!proto) throw new Error(`${command.name} does not build its handler with resolveMiddlewareWithContext: the recorder cannot see it`);
    return proto as { resolveMiddlewareWithContext: unknown };
  });
  if (new Set(owners).size !== 1) throw new Error('the SDK clients load more than one copy of @smithy/core: the recorder would miss calls');
  return owners[0]!;
}
