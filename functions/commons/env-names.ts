/**
 * Names of the environment variables through which the deployment tells a function where its resources are.
 * The wiring (infra/wiring.ts) sets them and functions/commons/config.ts reads them: one naming, two readers.
 */
export const envNames = {
  table: (name: string) => `TABLE_${name.toUpperCase()}`,
  queueUrl: (name: string) => `QUEUE_${name.toUpperCase()}_URL`,
  deadLetterQueueUrl: (name: string) => `QUEUE_${name.toUpperCase()}_DLQ_URL`,
  bucket: 'BUCKET_NAME',
  /** "cloud" on AWS, "local" in the local runtime (the address guard allows loopback only there). */
  mode: 'VIDBOT_MODE',
  /** Path-style S3 addressing, needed by the local S3 emulator. */
  s3ForcePathStyle: 'S3_FORCE_PATH_STYLE',
  /** "espeak" (default) or "polly": the speech engine for bots whose voice prefers Polly. */
  speechEngine: 'SPEECH_ENGINE',
  /** Multiplies every media run's time budget (default 1); tests shrink it to see the watchdog act. */
  renderBudgetScale: 'RENDER_BUDGET_SCALE',
  logLevel: 'POWERTOOLS_LOG_LEVEL',
  serviceName: 'POWERTOOLS_SERVICE_NAME',
} as const;
