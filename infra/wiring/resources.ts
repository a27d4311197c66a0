/** The wiring's resources: the tables, the queues, the alarms' thresholds, the media bucket's CORS rule. */
import type { QueueName, TableName } from '#commons/env-names';
import type { QueueDecl, RateAlarmDecl, TableDecl } from './declarations.ts';

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
   * One message per clip (or video's music) whose media from URLs must be brought into the bucket. The visibility
   * timeout is the fetcher's 3 minutes plus one.
   */
  fetch: {
    visibilityTimeoutSeconds: 240,
    maxReceiveCount: 3,
    // A fetch takes seconds (a URL that hangs is given up within about 5 s); 10 minutes means fetches queue behind
    // each other (all maxConcurrency busy) or crash and come back.
    oldestMessageAlarmSeconds: 600,
  },
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
   * One message per version of a video bot to prepare: its recording is decoded once with its landmarks, up to
   * limits.footagePrepareBudgetSeconds. The visibility timeout is the prepareFootage function's 15 minutes plus one.
   * A queue of its own, so photo and drawn bots never wait behind minutes-long recordings.
   */
  footage: {
    visibilityTimeoutSeconds: 960,
    // Two tries: a preparation that ran out its 15 minutes twice will not fit a third time.
    maxReceiveCount: 2,
    // One preparation takes at most 15 minutes; twice that means they queue behind each other or crash.
    oldestMessageAlarmSeconds: 1800,
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
