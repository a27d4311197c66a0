/** The wiring's functions: each one's entry, trigger, size, and the tables, queues and bucket it may touch. */
import { envNames, SWEPT_DEAD_LETTERS } from '#commons/env-names';
import { BUCKET_PREFIXES } from '#domain/bucket-layout';
import type { FunctionDecl, LayerName } from './declarations.ts';

/** Lambda layers built by `npm run build:layers` into layers/<name>/build. */
export const layers = {
  /** ffmpeg for the functions' architecture, at /opt/bin: the one media binary (it probes too). */
  media: { directory: 'layers/media/build', description: 'ffmpeg 4.1 static binary at /opt/bin' },
} as const satisfies Record<LayerName, { directory: string; description: string }>;

/**
 * How long a claim on a video's assembly holds: the assemble function's timeout, so that a claim outlives the
 * run that made it, plus a margin for clock skew. It must stay below the assemble queue's visibility timeout
 * (the stack refuses to synthesise otherwise): a crashed run's message is redelivered only after its lease ran
 * out, and then claims again.
 */
const ASSEMBLE_TIMEOUT_SECONDS = 300;
export const assemblyLeaseSeconds = ASSEMBLE_TIMEOUT_SECONDS + 30;

/** What the two preparation functions (prepare, prepareFootage) share: one image and handler, one job. */
const PREPARATION = {
  entry: 'functions/prepare/handler.ts',
  image: 'functions/prepare',
  trigger: 'queue',
  batchSize: 1,
  // A photo look peaks at about 1.5-1.8 GB; 3008 MB leaves room and buys about 1.7 vCPUs of CPU time (Lambda's
  // CPU grows with memory; onnxruntime runs 2 threads).
  memoryMb: 3008,
  tables: { accountBots: 'readWrite' },
  queues: { notify: 'send' },
  // It writes looks and removes what it used or made: the uploads (a video_upload's file too), a failed look; it
  // moves a replaced look to retired-looks/ (copy, then delete).
  bucket: { access: 'readWrite', delete: [BUCKET_PREFIXES.looks, BUCKET_PREFIXES.uploads, BUCKET_PREFIXES.uploadFiles] },
} as const;

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
    // uploads: a PUT's video_upload is claimed for the bot (and its file's size read); accounts: a test account's
    // bots preparing share its live account's limit.
    tables: { bots: 'read', accountBots: 'readWrite', uploads: 'readWrite', accounts: 'read' },
    // A PUT queues the preparation (a video bot's on its own queue); POST /v1/bot/{uid}/redeliver queues the bot's event.
    queues: { prepare: 'send', footage: 'send', notify: 'send' },
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
    tables: { templates: 'readWrite', bots: 'read', accountBots: 'read', clips: 'read', accounts: 'read' },
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
   * account in upload-files/, and withdraws an upload not used yet. It never reads or writes the file itself:
   * presigning needs the role's PutObject; a withdrawn upload's file is deleted.
   */
  uploads: {
    entry: 'functions/api/uploads.ts',
    trigger: 'http',
    routes: [
      { method: 'POST', path: '/v1/uploads' },
      { method: 'DELETE', path: '/v1/uploads/{id}' },
    ],
    memoryMb: 256,
    timeoutSeconds: 10,
    // accounts: a test account's pending uploads share its live account's limit.
    tables: { uploads: 'readWrite', accounts: 'read' },
    bucket: { access: 'write', delete: [BUCKET_PREFIXES.uploadFiles] },
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
    // Only the bucket's name: the page's policy lets it reach the bucket's origin (presigned uploads, words files).
    bucket: 'name',
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
  /**
   * The fetch stage: brings a clip's media (background, images, recording) or a video's music from the caller's
   * URLs into the bucket, then queues the render or assembly again (functions/fetcher). It only waits on strangers'
   * servers, each download at the media pace, so it is small and many run at once; render and assemble never wait.
   */
  fetcher: {
    entry: 'functions/fetcher/handler.ts',
    trigger: 'queue',
    queue: 'fetch',
    batchSize: 1,
    maxConcurrency: 100,
    localConcurrency: 8,
    memoryMb: 512,
    // The longest download (a recording's 60 s limit) and the uploads of what came, side by side.
    timeoutSeconds: 180,
    // A clip's media at most: a background (200 MB), a recording (100 MB), a logo and ten overlays' images (10 MiB each).
    ephemeralStorageMb: 1024,
    tables: { videos: 'readWrite' },
    queues: { render: 'send', assemble: 'send', notify: 'send' },
    // Reads to see whether an earlier run brought a file already; writes only what it brings.
    bucket: { access: 'read', put: [BUCKET_PREFIXES.fetched] },
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
    // The background (up to limits.maxBackgroundBytes, 200 MB), a clip's recording (100 MB; a WAV written to a pipe
    // twice while it decodes, with its sealed copy) and its decoded WAV, the speech track and the encoded clip, with
    // room for the leftovers of one killed render until the next invocation clears them.
    ephemeralStorageMb: 2048,
    // lexicons: a clip is said with its account's lexicon as it is when the clip renders.
    tables: { videos: 'readWrite', bots: 'read', accountBots: 'read', clips: 'readWrite', lexicons: 'read' },
    // fetch: a clip not in the render cache whose media from URLs is not in the bucket yet goes to the fetch stage.
    // Its own queue: a transiently failed attempt is retried after a backoff (ChangeMessageVisibility on it).
    queues: { assemble: 'send', notify: 'send', fetch: 'send', render: 'consume' },
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
    // music, the mixed file (as large again), the caller's music file (limits.maxMusicBytes; a WAV written to a pipe
    // twice while it decodes, with its sealed copy) and its decoded WAV
    // (at most the video's length: 30 minutes are 350 MB). A music URL is downloaded by the fetcher; assemble reads
    // it from fetched/ in the bucket.
    ephemeralStorageMb: 6144,
    tables: { videos: 'readWrite' },
    // fetch: a video whose music file is not in the bucket yet goes to the fetch stage first.
    queues: { notify: 'send', fetch: 'send' },
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
    ...PREPARATION,
    queue: 'prepare',
    maxConcurrency: 10,
    // A look takes 6-8 s on 2 x64 cores (docs/notes/packaging.md): 2 minutes is ample, and a stuck job is retried
    // after 3 minutes, not 6.
    timeoutSeconds: 120,
  },
  /**
   * Prepares a video bot: its recording is decoded once with its landmarks (docs/video-bots.md). The prepare image
   * and handler, as a function of its own: a recording takes minutes where a photo takes seconds, so it has
   * Lambda's whole 15 minutes (limits.footagePrepareBudgetSeconds bounds the decode inside them), disk for the
   * recording, and a queue and concurrency of its own, so photo and drawn bots never wait behind recordings.
   */
  prepareFootage: {
    ...PREPARATION,
    queue: 'footage',
    // Each holds an environment for minutes; limits.maxBotsPreparing bounds one account's share of them.
    maxConcurrency: 10,
    timeoutSeconds: 900,
    // The recording (up to limits.maxRecordingBytes, 300 MB) and the look made from it, with room for the
    // leftovers of one killed preparation until the next invocation clears them.
    ephemeralStorageMb: 2048,
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
    deadLetters: SWEPT_DEAD_LETTERS,
    // A failed bot's uploads go (a video_upload's file too; its previous look stays where it is); it reads and
    // writes nothing.
    bucket: { delete: [BUCKET_PREFIXES.uploads, BUCKET_PREFIXES.uploadFiles] },
  },
} as const satisfies Record<string, FunctionDecl>;
export type FunctionName = keyof typeof functions;
