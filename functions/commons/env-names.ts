/**
 * The names the wiring and the functions share, and nothing else: the tables and queues there are, and the
 * environment variables through which the deployment tells a function where its resources are and how it is
 * set up. The wiring (infra/wiring.ts) sets them and functions/commons/config.ts reads them: one naming, two
 * readers, and no import from functions/ into infra/ or back beyond this file (which imports nothing).
 */
const TABLE_NAMES = [
  'keys',
  'accounts',
  'bots',
  'accountBots',
  'videos',
  'clips',
  'idempotency',
  'inbox',
  'templates',
  'batches',
  'lexicons',
  'uploads',
] as const;
export type TableName = (typeof TABLE_NAMES)[number];
const QUEUE_NAMES = ['fetch', 'render', 'assemble', 'notify', 'prepare', 'footage', 'batch'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];
/**
 * The queues whose dead letters the sweeper reads, to fail the video or bot whose job crashed on every attempt: the
 * wiring grants exactly these and the sweeper's handler asks for exactly these (one list, so a new job queue cannot
 * be granted and never swept). notify and batch are not here: their messages are retried or revived otherwise.
 */
export const SWEPT_DEAD_LETTERS = ['fetch', 'render', 'assemble', 'prepare', 'footage'] as const satisfies readonly QueueName[];

export const envNames = {
  table: (name: string) => `TABLE_${name.toUpperCase()}`,
  queueUrl: (name: string) => `QUEUE_${name.toUpperCase()}_URL`,
  deadLetterQueueUrl: (name: string) => `QUEUE_${name.toUpperCase()}_DLQ_URL`,
  bucket: 'BUCKET_NAME',
  /** "cloud" on AWS, "local" in the local runtime (the address guard allows loopback only there). */
  mode: 'VIDBOT_MODE',
  /** Path-style S3 addressing, needed by the local S3 emulator. */
  s3ForcePathStyle: 'S3_FORCE_PATH_STYLE',
  /**
   * "espeak" (default) or "polly": whether the deployment uses Amazon Polly. With "polly", Polly's voices are listed
   * and accepted, and the built-in bots speak their Polly voices; espeak-ng's voices stay available either way.
   */
  speechEngine: 'SPEECH_ENGINE',
  /** A queue consumer's queue: receives before a message goes to its dead-letter queue. */
  maxReceiveCount: 'MAX_RECEIVE_COUNT',
  /** A queue consumer's queue, by its wiring name (the `queue` dimension of its QueueMessageAge metric). */
  consumedQueue: 'CONSUMED_QUEUE',
  /** A queue consumer's queue's visibility timeout, seconds: a transient failure's backoff is never longer. */
  consumedQueueVisibilitySeconds: 'CONSUMED_QUEUE_VISIBILITY_SECONDS',
  /** How long a claim on a video's assembly holds (assemble only; see infra/wiring.ts assemblyLeaseSeconds). */
  assemblyLeaseSeconds: 'ASSEMBLY_LEASE_SECONDS',
  /** Local runtime only: the file listing the loopback ports its functions may reach (commons/net/loopback-allow.ts). */
  loopbackAllowFile: 'VIDBOT_LOOPBACK_ALLOW_FILE',
  /** Multiplies every media run's time budget (default 1); tests shrink it to see the watchdog act. */
  renderBudgetScale: 'RENDER_BUDGET_SCALE',
  /** Render only: `off` skips the warm-up clip at initialisation (render/warm-up.ts); the local runtime's tests turn it off. @default on */
  renderWarmUp: 'RENDER_WARM_UP',
  /** Render only, optional: where the built-in looks' art and the caption font (Inter) are, if not beside the bundle. */
  botsDirectory: 'VIDBOT_BOTS_DIR',
  captionFontPath: 'CAPTION_FONT_PATH',
  logLevel: 'POWERTOOLS_LOG_LEVEL',
  serviceName: 'POWERTOOLS_SERVICE_NAME',
} as const;
