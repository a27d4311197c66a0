import { envNames, type QueueName, type TableName } from '#commons/env-names';
import { KEY_REQUIRED, WWW_AUTHENTICATE } from '#commons/gateway-messages';
import { BUCKET_PREFIXES } from '#domain/bucket-layout';

/**
 * The one declaration of how vidbot is wired: which function serves which route, which queue feeds which
 * function, which table, queue and bucket each may touch. The CDK stack (infra/stack.ts) and the local
 * runtime (infra/local) both read it, so the deployed service and the one on a laptop cannot drift.
 */

export type Access = 'read' | 'write' | 'readWrite';

export interface TableDecl {
  partitionKey: string;
  sortKey?: string;
  /** Attribute holding an epoch-seconds expiry (DynamoDB TTL). */
  ttlAttribute?: string;
  indexes?: Record<string, { partitionKey: string; sortKey?: string; sortKeyType?: 'S' | 'N' }>;
}

export interface QueueDecl {
  /** How long a received message stays hidden; must exceed the consumer's timeout. */
  visibilityTimeoutSeconds: number;
  /** Receives before a message moves to the queue's dead-letter queue. */
  maxReceiveCount: number;
  /**
   * Alarm when the queue's oldest message (SQS ApproximateAgeOfOldestMessage, which leaves out messages already
   * received three times or more) has waited longer than this, for two 5-minute periods in a row.
   */
  oldestMessageAlarmSeconds: number;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /**
   * The path as callers send it. A trailing slash is kept here because the handler tells the two operations
   * apart by it; API Gateway has no resource for it and delivers `/v1/bot/` to the `/v1/bot` resource.
   */
  path: string;
  /** Routes are authorised by the bearer-key authorizer unless this says otherwise. */
  auth?: 'none';
}

interface FunctionDeclBase {
  /** Module exporting `handler`, relative to the repository root. */
  entry: string;
  memoryMb: number;
  timeoutSeconds: number;
  tables?: Partial<Record<TableName, Access>>;
  /**
   * 'send': the URL and permission to send. 'consume': only the URL, for the queue that triggers the function
   * (its event source mapping grants consumption), e.g. to change a message's visibility.
   */
  queues?: Partial<Record<QueueName, 'send' | 'consume'>>;
  /** Dead-letter queues of these queues the function may read (receive and hide, never delete). */
  deadLetters?: readonly QueueName[];
  /**
   * The media bucket. 'readWriteDelete' may delete any object; `{ access, delete }` may delete only under the
   * given key prefixes (each ending in "/"), e.g. what the function itself writes; without `access`, only delete.
   */
  bucket?: Access | 'readWriteDelete' | { access?: Access; delete: readonly string[] };
  /** Extra plain environment, e.g. feature switches. */
  environment?: Record<string, string>;
  /** Needs Amazon Polly (speech synthesis). */
  polly?: boolean;
  /**
   * Lists, checks or speaks voices: told through SPEECH_ENGINE whether the deployment uses Polly
   * (speechEngines: Polly on AWS, espeak-ng locally).
   */
  voices?: boolean;
  /** Lambda layers from layers/ that the function needs. */
  layers?: LayerName[];
  /**
   * Size of the function's /tmp in MiB, 512 to 10240. Only functions that write media there need more than
   * Lambda's default.
   * @default 512
   */
  ephemeralStorageMb?: number;
}

export type FunctionDecl = FunctionDeclBase &
  (
    | { trigger: 'authorizer' }
    | { trigger: 'http'; routes: Route[] }
    | { trigger: 'queue'; queue: QueueName; batchSize: number; maxConcurrency?: number }
    | { trigger: 'schedule'; everyMinutes: number }
  ) & {
    /** Container image: the directory holding the Dockerfile (built from the render bundle). */
    image?: string;
  };

/** An answer API Gateway gives itself, in our error shape. */
export interface GatewayResponseDecl {
  /** Its status; absent keeps API Gateway's own (the DEFAULT_4XX/5XX catch-alls). */
  status?: number;
  code: string;
  message: string;
  headers?: Record<string, string>;
}

/** The REST API's own settings, shared by the stack and the local gateway. */
export const api = {
  stageName: 'prod',
  /**
   * Bodies of these types reach handlers base64-encoded, byte for byte: multipart (curl -F) needs it, and for
   * JSON and forms it lets the handler refuse invalid UTF-8 instead of seeing it already replaced by U+FFFD.
   */
  binaryMediaTypes: ['multipart/form-data', 'application/json', 'application/x-www-form-urlencoded'],
  /**
   * A REQUEST authorizer on the Authorization header (API Gateway answers 401 itself when the header is
   * missing). Decisions are cached per header value; the policy covers the whole stage.
   */
  authorizer: { type: 'REQUEST', identityHeader: 'Authorization', cacheTtlSeconds: 300 },
  /**
   * The answers API Gateway makes without a function (the stack's gateway responses; the local gateway gives the
   * same), keyed by API Gateway's response type.
   */
  gatewayResponses: {
    /** No or empty Authorization header, or the authorizer threw "Unauthorized". */
    UNAUTHORIZED: { status: 401, code: 'unauthorized', message: KEY_REQUIRED, headers: { 'WWW-Authenticate': WWW_AUTHENTICATE } },
    /** The authorizer returned a Deny policy (unknown or revoked key). */
    ACCESS_DENIED: {
      status: 403,
      code: 'unauthorized',
      message: 'The API key is not valid for this request.',
      headers: { 'WWW-Authenticate': WWW_AUTHENTICATE },
    },
    /** No resource or method matches: API Gateway's default is a confusing 403 "Missing Authentication Token". */
    MISSING_AUTHENTICATION_TOKEN: { status: 404, code: 'not_found', message: 'No such route.' },
    /** Over the stage's throttle or the key's usage plan. */
    THROTTLED: {
      status: 429,
      code: 'rate_limited',
      message: 'Too many requests with this API key; retry after the number of seconds in Retry-After.',
      headers: { 'Retry-After': '1' },
    },
    /** The plan sets no quota today; should one be added, its refusal keeps our shape. */
    QUOTA_EXCEEDED: { status: 429, code: 'quota_exceeded', message: 'This API key has used its request quota for the period.' },
    /** The authorizer named no usage-plan key, or one that is not in the plan (a key issued before usage plans). */
    INVALID_API_KEY: {
      status: 403,
      code: 'unauthorized',
      message: 'This API key is not enabled for requests yet; ask the vidbot operator to enable it.',
    },
    REQUEST_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'The request is larger than API Gateway accepts.' },
    /** The rest keep API Gateway's status code and get our body. */
    DEFAULT_4XX: { code: 'bad_request', message: 'The request could not be processed.' },
    DEFAULT_5XX: { code: 'internal_error', message: 'Something went wrong on our side.' },
  } satisfies Record<string, GatewayResponseDecl>,
  /**
   * Each API key's own request rate: an API Gateway usage plan, keyed by the usageIdentifierKey the authorizer
   * returns, so one busy key cannot spend the stage's whole throttle (50/s, bursts of 100; see the stack) and
   * starve the others: a key gets a fifth of it. 10/s is far above what a client needs (a create per second is
   * more videos than its in-progress limit lets it keep), and a burst of 20 lets it poll 20 videos at once.
   */
  usagePlan: { rateLimit: 10, burstLimit: 20 },
} as const;

export const tables = {
  /** API keys, stored by the SHA-256 of the key; never the key itself. */
  keys: {
    partitionKey: 'keyHash',
    // byTenant: the webhook inbox verifies a delivery against every key of the account the address names.
    indexes: { byKeyId: { partitionKey: 'keyId' }, byTenant: { partitionKey: 'tenantId' } },
  },
  /** Accounts (tenants): who owns keys and videos. */
  accounts: { partitionKey: 'tenantId' },
  /** The seeded bot catalog. */
  bots: { partitionKey: 'uid' },
  /**
   * Bots of each account (PUT /v1/bot/{uid}): one account's are never another's. `unsentEvents` is sparse (only a
   * settled bot whose event's first attempt is not recorded yet carries `eventPending`), by when it is due, for the
   * sweeper.
   */
  accountBots: {
    partitionKey: 'tenantId',
    sortKey: 'uid',
    indexes: { unsentEvents: { partitionKey: 'eventPending', sortKey: 'notifyBy', sortKeyType: 'N' } },
  },
  /**
   * Videos. `byTenant` lists a caller's videos newest first; `unfinished` is sparse (only videos not yet
   * completed or failed carry `pendingShard`), ordered by deadline, for the sweeper.
   */
  videos: {
    partitionKey: 'videoId',
    indexes: {
      byTenant: { partitionKey: 'tenantId', sortKey: 'createdAt' },
      unfinished: { partitionKey: 'pendingShard', sortKey: 'deadlineAt', sortKeyType: 'N' },
    },
  },
  /** Clips kept for reuse (reusable_clip: true), per tenant. */
  clips: { partitionKey: 'tenantId', sortKey: 'clipUid' },
  /** Powertools idempotency records (create's Idempotency-Key, webhook deliveries); they expire. */
  idempotency: { partitionKey: 'id', ttlAttribute: 'expiration' },
  /** The webhook inbox: verified deliveries per account, newest last in `receivedKey`, expiring after 7 days. */
  inbox: { partitionKey: 'tenantId', sortKey: 'receivedKey', ttlAttribute: 'expiresAt' },
  /** Templates of each account (PUT /v1/templates/{uid}): a create request with placeholders, saved once. */
  templates: { partitionKey: 'tenantId', sortKey: 'uid' },
  /** Uploads of each account (POST /v1/uploads): what was declared, and which request used it; they expire. */
  uploads: { partitionKey: 'tenantId', sortKey: 'uploadId', ttlAttribute: 'expiresAt' },
  /** Each account's pronunciation lexicon (PUT /v1/lexicon): one item per account. */
  lexicons: { partitionKey: 'tenantId' },
  /**
   * Batches of each account, newest first by id. `unsettled` is sparse (a batch carries `pendingShard` until its
   * batch.completed event's first attempt is recorded), by its last look, for the sweeper.
   */
  batches: {
    partitionKey: 'tenantId',
    sortKey: 'batchId',
    indexes: { unsettled: { partitionKey: 'pendingShard', sortKey: 'tickAt', sortKeyType: 'N' } },
  },
} as const satisfies Record<TableName, TableDecl>;
export type { QueueName, TableName };

export const queues = {
  /**
   * One message per clip to render. The visibility timeout is the render function's 15 minutes plus one, so a
   * crashed render is retried soon, well inside a video's 1 h deadline. AWS's rule of thumb of 6x the function
   * timeout guards against throttled invocations; the event source's maxConcurrency bounds those instead.
   */
  render: {
    visibilityTimeoutSeconds: 960,
    maxReceiveCount: 3,
    // A clip's message is in flight while it renders, up to the function's 15 minutes; 20 minutes means clips
    // wait for a render slot (all maxConcurrency busy) or crash and come back, and a third of the video's one-hour
    // deadline is gone.
    oldestMessageAlarmSeconds: 1200,
  },
  /**
   * One message per video whose clips are all rendered. The visibility timeout must stay above the assembly
   * lease (see assemblyLeaseSeconds below): the message of an assembler that crashed comes back only after its
   * lease ran out, so it can claim the assembly again.
   */
  assemble: {
    visibilityTimeoutSeconds: 360,
    maxReceiveCount: 3,
    // An assembly takes at most its 5-minute timeout; twice that means assemblies queue behind each other or
    // crash and wait out their lease.
    oldestMessageAlarmSeconds: 600,
  },
  /**
   * One message per webhook event. A failed attempt hides its message for the next backoff delay
   * (ChangeMessageVisibility), so each receive is one attempt and the DLQ holds what was never delivered.
   */
  notify: {
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 12,
    // A message counts until its third receive: its first three attempts are due within about 3 minutes (0, 30 s,
    // 2 min, ±20 %), and the long retries of a receiver that is down (5 min to 7 h apart) no longer count. So 15
    // minutes means the notifier is not keeping up or not running, not that a caller's endpoint is down.
    oldestMessageAlarmSeconds: 900,
  },
  /**
   * One message per version of an account's bot to prepare (PUT /v1/bot/{uid}). The visibility timeout is the
   * prepare function's 2 minutes plus one.
   */
  prepare: {
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 3,
    // A preparation takes seconds to a minute; 10 minutes means they queue behind each other or crash.
    oldestMessageAlarmSeconds: 600,
  },
  /**
   * The batch worker's looks: one message per running batch at a time, each queueing the next a few seconds later
   * (domain/batches.ts). A look takes seconds; a failed one is retried, and a batch whose chain was lost is revived
   * by the sweeper.
   */
  batch: {
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 5,
    // A look is due every few seconds; 10 minutes means the worker is not running or keeps failing.
    oldestMessageAlarmSeconds: 600,
  },
} as const satisfies Record<QueueName, QueueDecl>;

/**
 * A rate alarm: more than `percent` % of the events of a `periodMinutes` period went wrong, `evaluationPeriods`
 * periods in a row; a period with fewer than `minimum` events counts as 0 % (one failure of two is not a trend).
 */
export interface RateAlarmDecl {
  percent: number;
  minimum: number;
  periodMinutes: number;
  evaluationPeriods: number;
}

/**
 * The service's alarms besides each queue's (dead letters, oldest message): thresholds read by the stack
 * (infra/constructs/service-alarms.ts), each notifying the alarm topic.
 */
export const observability = {
  /**
   * Videos failing for the service's own reasons (render_failed, assembly_failed, render_expired,
   * deadline_exceeded: functions/commons/metric-names.ts SERVICE_FAULT_CODES) per video created, per hour (a video
   * may take up to its one-hour deadline to fail). Callers' bad backgrounds or missing bots are their input, not an
   * outage, and do not count. Normally about 0: one video in ten is a broken renderer or infrastructure.
   */
  renderFailureRate: { percent: 10, minimum: 10, periodMinutes: 60, evaluationPeriods: 1 },
  /**
   * Failed webhook attempts per attempt. Receivers fail on their own (that is what retries are for), but a
   * quarter of all attempts failing for half an hour, across every account, points at our side (egress, DNS,
   * signing) or at a large customer's outage worth knowing about.
   */
  webhookFailureRate: { percent: 25, minimum: 10, periodMinutes: 15, evaluationPeriods: 2 },
  /**
   * API answers 5xx per request. Handlers map every known error to a 4xx, so a 5xx is a bug or an outage (a
   * function failing, timing out or throttled); 1 % for 10 minutes is no longer a blip.
   */
  api5xxRate: { percent: 1, minimum: 20, periodMinutes: 5, evaluationPeriods: 2 },
} as const satisfies Record<string, RateAlarmDecl>;

/**
 * What a web page may do with the media bucket (its CORS rule): GET and HEAD, and PUT with a Content-Type, from any
 * origin, without credentials. Every object is reached only by a presigned link, which is its own authorisation;
 * CORS only lets a page that holds a link use it: the console's player needs it for a captions track (a <track>
 * from another origin loads only for a crossorigin media element), and its recorder to PUT an upload (POST
 * /v1/uploads). The API's own origin is not known to the bucket (the API depends on the functions, which depend on
 * the bucket), hence "*".
 */
export const mediaCors = {
  allowedMethods: ['GET', 'HEAD', 'PUT'],
  allowedHeaders: ['Content-Type'],
  allowedOrigins: ['*'],
  maxAgeSeconds: 3600,
} as const;

/** Lambda layers built by `npm run build:layers` into layers/<name>/build. */
export const layers = {
  /** ffmpeg for the functions' architecture, at /opt/bin: the one media binary (it probes too). */
  media: { directory: 'layers/media/build', description: 'ffmpeg 4.1 static binary at /opt/bin' },
} as const;
export type LayerName = keyof typeof layers;

/**
 * How long a claim on a video's assembly holds: the assemble function's timeout, so that a claim outlives the
 * run that made it, plus a margin for clock skew. It must stay below the assemble queue's visibility timeout
 * (the stack refuses to synthesise otherwise): a crashed run's message is redelivered only after its lease ran
 * out, and then claims again.
 */
const ASSEMBLE_TIMEOUT_SECONDS = 300;
export const assemblyLeaseSeconds = ASSEMBLE_TIMEOUT_SECONDS + 30;

export const functions = {
  authorizer: {
    entry: 'functions/authorizer/handler.ts',
    trigger: 'authorizer',
    memoryMb: 256,
    timeoutSeconds: 10,
    tables: { keys: 'read' },
  },
  createVideo: {
    entry: 'functions/api/create-video.ts',
    trigger: 'http',
    routes: [
      { method: 'POST', path: '/v1/bot' },
      { method: 'POST', path: '/v1/bot/' },
      { method: 'POST', path: '/v1/create_video' },
      // A video from a template: the same create, its fields filled from the template.
      { method: 'POST', path: '/v1/templates/{uid}/videos' },
    ],
    memoryMb: 512,
    timeoutSeconds: 15,
    voices: true,
    // accounts: each account's limit of videos in progress.
    // uploads: a clip's audio_upload is claimed for its video (and its file's size read: bucket 'read').
    tables: {
      accounts: 'read',
      bots: 'read',
      accountBots: 'read',
      videos: 'readWrite',
      clips: 'read',
      idempotency: 'readWrite',
      templates: 'read',
      uploads: 'readWrite',
    },
    queues: { render: 'send' },
    bucket: 'read',
  },
  bots: {
    entry: 'functions/api/bots.ts',
    trigger: 'http',
    routes: [
      { method: 'GET', path: '/v1/bot' },
      { method: 'GET', path: '/v1/bot/{uid}' },
      { method: 'PUT', path: '/v1/bot/{uid}' },
      { method: 'DELETE', path: '/v1/bot/{uid}' },
      { method: 'POST', path: '/v1/bot/{uid}/redeliver' },
    ],
    // A PUT holds its images (up to limits.maxBotBodyBytes) in memory while it stores them.
    memoryMb: 512,
    timeoutSeconds: 15,
    // The voices a PUT may name depend on the deployment's speech engine.
    voices: true,
    // uploads: a PUT's video_upload is claimed for the bot (and its file's size read).
    tables: { bots: 'read', accountBots: 'readWrite', uploads: 'readWrite' },
    // A PUT queues the preparation; POST /v1/bot/{uid}/redeliver queues the bot's event.
    queues: { prepare: 'send', notify: 'send' },
    // It stores a PUT's images under uploads/ and deletes a bot's uploads (uploads/, and the upload-files/ file its
    // video_upload named) and looks (looks/, retired-looks/).
    bucket: {
      access: 'readWrite',
      delete: [BUCKET_PREFIXES.looks, BUCKET_PREFIXES.retiredLooks, BUCKET_PREFIXES.uploads, BUCKET_PREFIXES.uploadFiles],
    },
  },
  /** Templates: saved, listed, read and deleted here; videos are made from them by createVideo. */
  templates: {
    entry: 'functions/api/templates.ts',
    trigger: 'http',
    routes: [
      { method: 'GET', path: '/v1/templates' },
      { method: 'GET', path: '/v1/templates/{uid}' },
      { method: 'PUT', path: '/v1/templates/{uid}' },
      { method: 'DELETE', path: '/v1/templates/{uid}' },
    ],
    memoryMb: 256,
    timeoutSeconds: 10,
    // A template is checked when saved: its bots (built in and the account's), voices and kept clips.
    voices: true,
    tables: { templates: 'readWrite', bots: 'read', accountBots: 'read', clips: 'read' },
  },
  /** The account's pronunciation lexicon: replaced, read and removed here; the render reads it. */
  lexicon: {
    entry: 'functions/api/lexicon.ts',
    trigger: 'http',
    routes: [
      { method: 'GET', path: '/v1/lexicon' },
      { method: 'PUT', path: '/v1/lexicon' },
      { method: 'DELETE', path: '/v1/lexicon' },
    ],
    memoryMb: 256,
    timeoutSeconds: 10,
    tables: { lexicons: 'readWrite' },
  },
  /**
   * Batches: one video per row of a template's data. A POST checks every row as a create and stores the batch; the
   * batcher releases the rows.
   */
  batches: {
    entry: 'functions/api/batches.ts',
    trigger: 'http',
    routes: [
      { method: 'POST', path: '/v1/templates/{uid}/batches' },
      { method: 'GET', path: '/v1/batches' },
      { method: 'GET', path: '/v1/batches/{id}' },
      { method: 'DELETE', path: '/v1/batches/{id}' },
    ],
    // A POST holds up to 2 MB of CSV and checks up to 1000 rows.
    memoryMb: 1024,
    timeoutSeconds: 30,
    voices: true,
    tables: {
      batches: 'readWrite',
      templates: 'read',
      bots: 'read',
      accountBots: 'read',
      clips: 'read',
      accounts: 'read',
      videos: 'read',
      idempotency: 'readWrite',
      // uploads: the rows' audio_upload are claimed for the batch (and their files' sizes read).
      uploads: 'readWrite',
    },
    queues: { batch: 'send' },
    // It stores the batch's input under batches/ and presigns its videos' downloads.
    bucket: 'readWrite',
  },
  /**
   * The batch worker: one look at a batch per message. It makes the videos of rows as the account has room (the
   * same create as POST /v1/bot), counts the settled ones, and queues batch.completed.
   */
  batcher: {
    entry: 'functions/batcher/handler.ts',
    trigger: 'queue',
    queue: 'batch',
    batchSize: 1,
    memoryMb: 512,
    timeoutSeconds: 60,
    voices: true,
    tables: { batches: 'readWrite', videos: 'readWrite', accounts: 'read', bots: 'read', accountBots: 'read', clips: 'read' },
    queues: { batch: 'send', render: 'send', notify: 'send' },
    bucket: 'read',
  },
  /**
   * Uploads: records what the caller declared and signs the PUT that stores exactly that file under the caller's
   * account in upload-files/. It never reads or writes the file itself: presigning needs the role's PutObject.
   */
  uploads: {
    entry: 'functions/api/uploads.ts',
    trigger: 'http',
    routes: [{ method: 'POST', path: '/v1/uploads' }],
    memoryMb: 256,
    timeoutSeconds: 10,
    tables: { uploads: 'readWrite' },
    bucket: 'write',
  },
  /** The voice catalog: data in the code, no table. */
  voices: {
    entry: 'functions/api/voices.ts',
    trigger: 'http',
    routes: [{ method: 'GET', path: '/v1/voices' }],
    memoryMb: 256,
    timeoutSeconds: 10,
    voices: true,
  },
  videos: {
    entry: 'functions/api/videos.ts',
    trigger: 'http',
    routes: [
      { method: 'GET', path: '/v1/video' },
      { method: 'GET', path: '/v1/video/{id}' },
      { method: 'DELETE', path: '/v1/video/{id}' },
      { method: 'GET', path: '/v1/video/{id}/download' },
      { method: 'POST', path: '/v1/video/{id}/redeliver' },
      { method: 'GET', path: '/v1/clips' },
    ],
    memoryMb: 256,
    timeoutSeconds: 10,
    tables: { videos: 'readWrite', clips: 'read' },
    queues: { notify: 'send' },
    bucket: 'readWriteDelete',
  },
  account: {
    entry: 'functions/api/account.ts',
    trigger: 'http',
    routes: [{ method: 'GET', path: '/v1/account' }],
    memoryMb: 256,
    timeoutSeconds: 10,
    tables: { accounts: 'read', videos: 'read' },
  },
  meta: {
    entry: 'functions/api/meta.ts',
    trigger: 'http',
    routes: [
      { method: 'GET', path: '/health', auth: 'none' },
      { method: 'GET', path: '/v1/openapi.json' },
    ],
    memoryMb: 256,
    timeoutSeconds: 10,
  },
  /** The console: one HTML page (its script and styles inline), public like any web page; it asks for a key. */
  console: {
    entry: 'functions/api/console.ts',
    trigger: 'http',
    routes: [{ method: 'GET', path: '/', auth: 'none' }],
    memoryMb: 256,
    timeoutSeconds: 10,
  },
  /**
   * The webhook inbox's address. Public: a webhook sender has no bearer key; the Standard Webhooks signature,
   * checked against the account's keys' secrets, is its authentication. It may only store, never list.
   */
  inboxReceive: {
    entry: 'functions/api/inbox-receive.ts',
    trigger: 'http',
    routes: [{ method: 'POST', path: '/v1/inbox/{account}', auth: 'none' }],
    memoryMb: 256,
    timeoutSeconds: 10,
    tables: { keys: 'read', inbox: 'write' },
  },
  /** The caller's inbox, with its key. */
  inbox: {
    entry: 'functions/api/inbox.ts',
    trigger: 'http',
    routes: [{ method: 'GET', path: '/v1/inbox' }],
    memoryMb: 256,
    timeoutSeconds: 10,
    tables: { inbox: 'read' },
  },
  render: {
    entry: 'functions/render/handler.ts',
    image: 'functions/render',
    trigger: 'queue',
    queue: 'render',
    batchSize: 1,
    maxConcurrency: 50,
    memoryMb: 3008,
    timeoutSeconds: 900,
    // The background (up to limits.maxBackgroundBytes, 200 MB), the speech track and the encoded clip, with
    // room for the leftovers of one killed render until the next invocation clears them.
    ephemeralStorageMb: 2048,
    // lexicons: a clip is said with its account's lexicon as it is when the clip renders.
    tables: { videos: 'readWrite', bots: 'read', accountBots: 'read', clips: 'readWrite', lexicons: 'read' },
    queues: { assemble: 'send', notify: 'send' },
    bucket: 'readWrite',
    polly: true,
    voices: true,
  },
  assemble: {
    entry: 'functions/assemble/handler.ts',
    trigger: 'queue',
    queue: 'assemble',
    batchSize: 1,
    memoryMb: 1024,
    timeoutSeconds: ASSEMBLE_TIMEOUT_SECONDS,
    environment: { [envNames.assemblyLeaseSeconds]: String(assemblyLeaseSeconds) },
    // Every part of a video (up to limits.maxClips of them) and the joined file, which is as large again; with
    // music, the mixed file (as large again), the caller's music file (limits.maxMusicBytes) and its decoded WAV
    // (at most the video's length: 30 minutes are 350 MB). The music is fetched through the address guard, as the
    // render fetches backgrounds: the function needs no more than the internet access every Lambda has.
    ephemeralStorageMb: 6144,
    tables: { videos: 'readWrite' },
    queues: { notify: 'send' },
    // It deletes an output it stored for a video that ended meanwhile (assemble-job.ts discardOutput), and
    // only what it writes: outputs/ (outputObjectKey).
    bucket: { access: 'readWrite', delete: [BUCKET_PREFIXES.outputs] },
    layers: ['media'],
  },
  notifier: {
    entry: 'functions/notifier/handler.ts',
    trigger: 'queue',
    queue: 'notify',
    batchSize: 10,
    memoryMb: 256,
    timeoutSeconds: 30,
    // A bot's event shows the voice it speaks with in this deployment.
    voices: true,
    // accountBots, batches: a bot's or a batch's event is built from its record, and its attempts are recorded on it.
    tables: { videos: 'readWrite', accountBots: 'readWrite', batches: 'readWrite', keys: 'read', idempotency: 'readWrite' },
    // Its own queue: a failed attempt re-schedules itself with ChangeMessageVisibility on it.
    queues: { notify: 'consume' },
    bucket: 'read',
  },
  /**
   * Prepares an account's bot: its images become a look (face, landmarks, matting, mouth and eye warps for a
   * photo; the layers for drawn images). A container image, as render is: it carries the models and their
   * native runtimes.
   */
  prepare: {
    entry: 'functions/prepare/handler.ts',
    image: 'functions/prepare',
    trigger: 'queue',
    queue: 'prepare',
    batchSize: 1,
    maxConcurrency: 10,
    // A photo look peaks at about 1.5-1.8 GB; 3008 MB leaves room and buys about 1.7 vCPUs of CPU time (Lambda's
    // CPU grows with memory; onnxruntime runs 2 threads). A look takes 6-8 s on 2 x64 cores
    // (docs/notes/packaging.md): 2 minutes is ample, and a stuck job is retried after 3 minutes, not 6.
    memoryMb: 3008,
    timeoutSeconds: 120,
    tables: { accountBots: 'readWrite' },
    queues: { notify: 'send' },
    // It writes looks and removes what it used or made: the uploads (a video_upload's file too), a failed look; it
    // moves a replaced look to retired-looks/ (copy, then delete).
    bucket: { access: 'readWrite', delete: [BUCKET_PREFIXES.looks, BUCKET_PREFIXES.uploads, BUCKET_PREFIXES.uploadFiles] },
  },
  sweeper: {
    entry: 'functions/sweeper/handler.ts',
    trigger: 'schedule',
    everyMinutes: 5,
    memoryMb: 256,
    timeoutSeconds: 60,
    // accountBots: a bot whose preparation crashed on every attempt is failed. batches: a batch whose looks
    // stopped gets one again (batch), a settled one whose event was lost gets it again.
    tables: { videos: 'readWrite', accountBots: 'readWrite', batches: 'readWrite' },
    queues: { notify: 'send', batch: 'send' },
    // Jobs that crashed on every attempt end there; the sweeper fails their videos or bots and leaves the messages.
    deadLetters: ['render', 'assemble', 'prepare'],
    // A failed bot's uploads go (a video_upload's file too; its previous look stays where it is); it reads and
    // writes nothing.
    bucket: { delete: [BUCKET_PREFIXES.uploads, BUCKET_PREFIXES.uploadFiles] },
  },
} as const satisfies Record<string, FunctionDecl>;
export type FunctionName = keyof typeof functions;

/**
 * API Gateway has no path part ending in "/": a route declared with a trailing slash is served by the resource
 * without it (and the handler sees the raw path, slash included).
 */
export const apiResourcePath = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

/** One API Gateway method: a resource, an HTTP method, the function behind it, and whether it needs a key. */
export interface ApiMethod {
  resourcePath: string;
  method: Route['method'];
  function: string;
  auth: boolean;
  /** The declared paths it serves, e.g. both /v1/bot and /v1/bot/. */
  paths: string[];
}

/**
 * The methods the http functions' routes make, as both the stack and the local gateway build them. Routes that
 * land on one method must name one function and one auth; anything else is a wiring error, refused here.
 */
export function apiMethods(fns: Record<string, FunctionDecl> = functions): ApiMethod[] {
  const methods = new Map<string, ApiMethod>();
  for (const [name, decl] of Object.entries(fns)) {
    if (decl.trigger !== 'http') continue;
    for (const route of decl.routes as readonly Route[]) {
      const resourcePath = apiResourcePath(route.path);
      const key = `${route.method} ${resourcePath}`;
      const auth = route.auth !== 'none';
      const existing = methods.get(key);
      if (!existing) methods.set(key, { resourcePath, method: route.method, function: name, auth, paths: [route.path] });
      else if (existing.function !== name || existing.auth !== auth)
        throw new Error(
          `routes ${route.method} ${existing.paths[0]} and ${route.method} ${route.path} are one api gateway method but differ in function or auth`,
        );
      else existing.paths.push(route.path);
    }
  }
  return [...methods.values()];
}

/**
 * Every route with the function that serves it.
 * @internal Exported for its tests.
 */
export const routes = Object.entries(functions).flatMap(([name, fn]) =>
  fn.trigger === 'http' ? fn.routes.map((route) => ({ ...(route as Route), function: name as FunctionName })) : [],
);

/** Physical names of the resources, as the CDK stack or the local runtime created them. */
export interface ResourceNames {
  table: (name: TableName) => string;
  queueUrl: (name: QueueName) => string;
  deadLetterQueueUrl: (name: QueueName) => string;
  bucket: string;
}

/**
 * The speech engine of the built-in bots: Amazon Polly's neural voices on AWS; espeak-ng locally, where there is
 * no AWS (it is also every deployment's offline engine: its voices are always listed). To deploy without Polly,
 * set `cloud` to 'espeak'.
 * @internal Exported for its tests.
 */
export const speechEngines: Record<'cloud' | 'local', 'espeak' | 'polly'> = { cloud: 'polly', local: 'espeak' };

/**
 * The environment a function gets: exactly the resources its declaration names, under the variable names of
 * functions/commons/env-names.ts. Used by the stack for Lambda and by the local runtime for its workers.
 * `speechEngine` defaults to the mode's (speechEngines); the local runtime gives 'espeak' in either mode, having
 * no Polly.
 */
export function environmentFor(
  fn: FunctionDecl,
  names: ResourceNames,
  mode: 'cloud' | 'local',
  speechEngine: 'espeak' | 'polly' = speechEngines[mode],
): Record<string, string> {
  const env: Record<string, string> = { [envNames.mode]: mode, ...(fn.environment ?? {}) };
  for (const table of Object.keys(fn.tables ?? {}) as TableName[]) env[envNames.table(table)] = names.table(table);
  for (const queue of Object.keys(fn.queues ?? {}) as QueueName[]) env[envNames.queueUrl(queue)] = names.queueUrl(queue);
  for (const queue of fn.deadLetters ?? []) env[envNames.deadLetterQueueUrl(queue)] = names.deadLetterQueueUrl(queue);
  if (fn.bucket) env[envNames.bucket] = names.bucket;
  if (fn.voices) env[envNames.speechEngine] = speechEngine;
  // A consumer fails a job for good on its queue's last receive, and names its queue in its metrics.
  if (fn.trigger === 'queue') {
    env[envNames.maxReceiveCount] = String(queues[fn.queue].maxReceiveCount);
    env[envNames.consumedQueue] = fn.queue;
  }
  return env;
}
