/**
 * The capabilities the domain needs from the outside world. The domain only sees these interfaces;
 * functions/commons/aws holds the AWS SDK adapters (used on AWS and, against emulators, locally) and tests
 * pass in-memory ones.
 */
import type { AccountBot, BotDelivery, BotFailure, StoredLook } from './account-bot.ts';
import type { BatchRecord } from './batches.ts';
import type { Bot } from './bot.ts';
import type { ClipSpec } from './clip.ts';
import type { InboxEvent } from './inbox.ts';
import type { Lexicon } from './lexicon.ts';
import type { Shape } from './shape.ts';
import type { TemplateRecord } from './templates.ts';
import type { Upload } from './uploads.ts';
import type { ClipResult, DeliveryAttempt, DeliveryState, VideoError, VideoOutput, VideoRecord, VideoStatus } from './video.ts';

export interface Page<T> {
  items: T[];
  /** Opaque cursor for the next page; absent on the last page. */
  nextCursor?: string;
}

export interface BotCatalog {
  list(): Promise<Bot[]>;
  get(uid: string): Promise<Bot | undefined>;
}

export interface VideoRepository {
  /** Fails with ConflictError if the id exists. */
  create(video: VideoRecord): Promise<void>;
  get(videoId: string): Promise<VideoRecord | undefined>;
  listByTenant(tenantId: string, options: { limit: number; cursor?: string }): Promise<Page<VideoRecord>>;
  /**
   * The tenant's videos by status, counting at most `upTo` of them (newest first): `complete` is false when
   * there were more, so a very large account gets a bounded, honestly labelled answer rather than a time-out.
   */
  countByStatus(tenantId: string, upTo: number): Promise<{ counts: Record<VideoStatus, number>; complete: boolean }>;
  /**
   * The tenant's videos created at or after `createdSince` (ISO time) that are still work: not finished (queued,
   * rendering, assembling), or finished with their event still being delivered. Counts at most `upTo`.
   * Eventually consistent: a video created a moment ago may be missing.
   */
  countInProgress(tenantId: string, createdSince: string, upTo: number): Promise<number>;
  delete(videoId: string): Promise<void>;
  /** queued → rendering and the clip to rendering; a no-op on a terminal video. Returns the record. */
  markClipRendering(videoId: string, clipIndex: number): Promise<VideoRecord | undefined>;
  /**
   * Records a rendered clip once (a conditional write: a redelivered message does not count twice) and
   * returns whether every clip of the video is now rendered.
   */
  recordClipRendered(videoId: string, clipIndex: number, result: ClipResult): Promise<{ allRendered: boolean; firstTime: boolean }>;
  /**
   * Records a rendering clip's prepared recording's length (ClipResult.recordingSeconds) and returns the record, so
   * that the video's known length is checked with every length recorded so far; a no-op on an ended video.
   */
  recordRecordingSeconds(videoId: string, clipIndex: number, seconds: number): Promise<VideoRecord | undefined>;
  /**
   * Claims the video's assembly for `leaseSeconds`: rendering → assembling once every clip is rendered, or
   * assembling → assembling when the previous claim's lease has run out (its assembler crashed or timed out).
   * False while another run holds the lease, or when the video is not ready or has ended: assembly must not run.
   */
  claimAssembly(videoId: string, leaseSeconds: number): Promise<boolean>;
  /** assembling → completed, once: true for the one caller that made the transition. */
  complete(videoId: string, output: VideoOutput, eventId: string): Promise<boolean>;
  /** Any non-terminal status → failed, once: true for the one caller that made the transition. */
  fail(videoId: string, error: VideoError, eventId: string): Promise<boolean>;
  /**
   * Videos past their deadline that still need attention: renders not finished, or finished videos whose
   * first webhook attempt was never recorded.
   */
  listOverdue(nowEpochSeconds: number, limit: number): Promise<VideoRecord[]>;
  postponeDeadline(videoId: string, deadlineAt: number): Promise<void>;
  /** Appends an attempt; the first one takes the video out of the sweeper's view. */
  recordDeliveryAttempt(videoId: string, attempt: DeliveryAttempt, state: DeliveryState, chainId: string): Promise<void>;
  /**
   * A finished video that sends no event of its own (a batch's row without notify_each) leaves the sweeper's
   * index: nothing more is owed for it.
   */
  settleWithoutEvent(videoId: string): Promise<void>;
}

/** A clip kept with reusable_clip: true. */
export interface KeptClip {
  tenantId: string;
  clipUid: string;
  clipName: string;
  contentHash: string;
  objectKey: string;
  durationSeconds: number;
  botUid: string;
  createVideo: boolean;
  /** The shape of the video that kept it. */
  shape: Shape;
  createdAt: string;
  /** Everything needed to render it again; a request naming the clip_uid reuses this spec (and so the render). */
  spec: Omit<ClipSpec, 'index' | 'clipName'>;
}

export interface ClipLibrary {
  put(clip: KeptClip): Promise<void>;
  get(tenantId: string, clipUid: string): Promise<KeptClip | undefined>;
  list(tenantId: string, options: { limit: number; cursor?: string }): Promise<Page<KeptClip>>;
}

export interface ApiKeyRecord {
  keyHash: string;
  keyId: string;
  tenantId: string;
  name: string;
  createdAt: string;
  revokedAt?: string;
  /** Standard Webhooks secrets (whsec_...). The first signs; others still sign until they expire (rotation grace). */
  webhookSecrets: { secret: string; createdAt: string; expiresAt?: string }[];
  /**
   * The usage-plan key the authorizer returns (the key's request rate). Absent on keys issued before usage
   * plans until `npm run keys -- sync-usage-plan`; API Gateway answers 403 to those.
   */
  usageIdentifierKey?: string;
  /** A test key: its account is a test account (domain/test-mode.ts). */
  test?: true;
}

export interface Account {
  tenantId: string;
  name: string;
  createdAt: string;
  /** Videos this account may have in progress at once; absent: limits.defaultMaxVideosInProgress. */
  maxVideosInProgress?: number;
  /** A test account (domain/test-mode.ts): its videos are test videos. `liveTenantId`: the account it tests for. */
  test?: true;
  liveTenantId?: string;
  /** A live account's test account, once a test key was issued for it. */
  testTenantId?: string;
}

export interface KeyStore {
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  findById(keyId: string): Promise<ApiKeyRecord | undefined>;
  /** Every key of an account, revoked ones too (the notifier still signs their videos' events). */
  listByTenant(tenantId: string): Promise<ApiKeyRecord[]>;
  put(key: ApiKeyRecord): Promise<void>;
  revoke(keyId: string, at: string): Promise<boolean>;
  setWebhookSecrets(keyId: string, secrets: ApiKeyRecord['webhookSecrets']): Promise<void>;
  /** Lifts a revocation (the local runtime's dev key, given again by DEV_API_KEY). */
  reinstate(keyId: string): Promise<void>;
  /** Gives a key a usage-plan key unless it has one; returns the one it has. */
  ensureUsageIdentifierKey(keyId: string, candidate: string): Promise<string>;
}

export interface AccountStore {
  get(tenantId: string): Promise<Account | undefined>;
  put(account: Account): Promise<void>;
  /** Sets the account's limit of videos in progress; false if there is no such account. */
  setMaxVideosInProgress(tenantId: string, limit: number): Promise<boolean>;
}

export interface ObjectHead {
  sizeBytes: number;
  metadata: Record<string, string>;
  /** When the object was last written; lifecycle expiry counts from it (reading does not reset it). */
  lastModified: Date;
}

export interface PresignedLink {
  url: string;
  expiresAt: string;
}

export interface ObjectStore {
  putFile(
    key: string,
    filePath: string,
    options: { contentType: string; tags?: Record<string, string>; metadata?: Record<string, string> },
  ): Promise<{ sizeBytes: number }>;
  putBytes(key: string, body: Uint8Array | string, options: { contentType: string; tags?: Record<string, string> }): Promise<void>;
  /** A small object's content as UTF-8 text (a batch's input), or undefined if it does not exist. */
  getText(key: string): Promise<string | undefined>;
  /** Downloads to a local file; false if the object does not exist. */
  getToFile(key: string, filePath: string): Promise<boolean>;
  /** Size, user metadata and last write of an object, or undefined if it does not exist. */
  head(key: string): Promise<ObjectHead | undefined>;
  /**
   * Copies an object within the store, with its metadata and content type, and gives the copy `tags` (the
   * source's tags are not copied). Throws if the source does not exist.
   */
  copy(fromKey: string, toKey: string, options: { tags: Record<string, string> }): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * A presigned GET link. It lasts `expiresInSeconds`, or less when the credentials that sign it expire sooner
   * (a Lambda role's temporary credentials do): `expiresAt` is the truth.
   */
  presignGet(key: string, expiresInSeconds: number, downloadName?: string): Promise<PresignedLink>;
  /**
   * A presigned PUT link that stores exactly one file at `key`: its signature covers the content type and the
   * length, so a request with another type or size is refused by the store itself. Same expiry rule as presignGet.
   */
  presignPut(key: string, file: { contentType: string; sizeBytes: number; expiresInSeconds: number }): Promise<PresignedLink>;
}

/**
 * A dead-letter queue, read without consuming: `peek` receives messages and hides them for `hideSeconds`, so
 * each is seen about once per that period, and they stay for inspection and redrive.
 */
export interface DeadLetterInbox {
  peek(max: number, hideSeconds: number): Promise<{ body: string; receiveCount: number }[]>;
}

export interface MessageQueue<T> {
  send(message: T, options?: { delaySeconds?: number; deduplicationId?: string }): Promise<void>;
  sendBatch(messages: T[]): Promise<void>;
}

/** Verified webhook deliveries kept for an account (the webhook inbox). */
export interface InboxStore {
  /** Stores an event unless one with its key is already there (a replayed delivery); whether it stored it. */
  putNew(event: InboxEvent): Promise<boolean>;
  /** The account's events, newest first. */
  list(tenantId: string, options: { limit: number; cursor?: string }): Promise<Page<InboxEvent>>;
}

/** What identifies the state of a bot record a request read: a PUT changes its version, a settle its updatedAt. */
export type RecordRead = Pick<AccountBot, 'version' | 'updatedAt'>;

/** The bots of each account (PUT /v1/bot/{uid}), keyed by account and uid. */
export interface AccountBotStore {
  get(tenantId: string, uid: string): Promise<AccountBot | undefined>;
  list(tenantId: string): Promise<AccountBot[]>;
  /**
   * Stores the record only if the stored one is still the one read, `replacing` (its version and last update;
   * undefined: there is none), so that of two requests that read the same record only one writes, and none writes
   * over a preparation that settled since it read; false if another got there first.
   */
  put(bot: AccountBot, replacing: RecordRead | undefined): Promise<boolean>;
  /** Deletes the record only while it is still the one read; false if it was replaced, settled or deleted meanwhile. */
  delete(tenantId: string, uid: string, read: RecordRead): Promise<boolean>;
  /**
   * preparing → ready with its look, only while the record is still at `version` (not replaced or deleted
   * meanwhile): false otherwise, and the caller removes what it made.
   */
  markReady(tenantId: string, uid: string, version: string, look: StoredLook, at: string, delivery: BotDelivery | undefined): Promise<boolean>;
  /**
   * preparing → failed, only while at `version`; the look is cleared (the job retired it). `delivery`: the event's
   * record of attempts, when the bot has a webhook.
   */
  markFailed(tenantId: string, uid: string, version: string, error: BotFailure, at: string, delivery: BotDelivery | undefined): Promise<boolean>;
  /**
   * Appends an attempt to deliver the bot's event, while the record is still at `version` (else nothing); the bot
   * leaves the sweeper's list of unsent events.
   */
  recordDeliveryAttempt(
    tenantId: string,
    uid: string,
    version: string,
    attempt: DeliveryAttempt,
    state: DeliveryState,
    chainId: string,
  ): Promise<void>;
  /** Settled bots whose event has no attempt recorded by `nowEpochSeconds` (its message was lost): for the sweeper. */
  listUnsentEvents(nowEpochSeconds: number, limit: number): Promise<AccountBot[]>;
  /** Gives an unsent event until `notifyBy` before the sweeper looks at it again (while the record is at `version`). */
  postponeUnsentEvent(tenantId: string, uid: string, version: string, notifyBy: number): Promise<void>;
}

/** Each account's pronunciation lexicon (one per account): another account's is never found. */
/** Uploads of each account (domain/uploads.ts). */
export interface UploadStore {
  put(upload: Upload): Promise<void>;
  /** The account's upload by its id, or undefined (also when the id is another account's). */
  get(tenantId: string, uploadId: string): Promise<Upload | undefined>;
  /**
   * Marks the upload used by `usedBy`; false if it was used already (a conditional write: one winner). `countsUntil`
   * (epoch seconds): it still counts as pending until then (a withdrawn upload, whose link may still store a file).
   */
  markUsed(tenantId: string, uploadId: string, usedBy: string, countsUntil?: number): Promise<boolean>;
  /** Gives back an upload `usedBy` took, if it still holds it (a request that failed after claiming it). */
  release(tenantId: string, uploadId: string, usedBy: string): Promise<void>;
  /** How many of the account's uploads are neither used (or still count: countsUntil) nor expired at `nowSeconds`. */
  countPending(tenantId: string, nowSeconds: number): Promise<number>;
}

export interface LexiconStore {
  get(tenantId: string): Promise<Lexicon | undefined>;
  put(lexicon: Lexicon): Promise<void>;
  delete(tenantId: string): Promise<void>;
}

/** Templates of each account, keyed by account and uid: another account's template is never found. */
export interface TemplateStore {
  get(tenantId: string, uid: string): Promise<TemplateRecord | undefined>;
  put(template: TemplateRecord): Promise<void>;
  /** False when there was none. */
  delete(tenantId: string, uid: string): Promise<boolean>;
  list(tenantId: string, options: { limit: number; cursor?: string }): Promise<Page<TemplateRecord>>;
}

/** Batches of each account, keyed by account and id (newest first by id): another account's is never found. */
export interface BatchStore {
  create(batch: BatchRecord): Promise<void>;
  get(tenantId: string, batchId: string): Promise<BatchRecord | undefined>;
  /**
   * Takes one of the account's `slots` running-batch slots for the stored batch `batchId`, atomically (false when
   * every slot is held by a batch still queued or running, or when the account's running batches already number
   * `slots`): concurrent creates never pass the limit together.
   */
  claimRunningSlot(tenantId: string, batchId: string, slots: number): Promise<boolean>;
  /** How many of the account's batches hold a running-batch slot now (queued or running). */
  countRunning(tenantId: string): Promise<number>;
  /** Removes a batch whose first look could not be queued (its caller got an error). */
  delete(tenantId: string, batchId: string): Promise<void>;
  list(tenantId: string, options: { limit: number; cursor?: string }): Promise<Page<BatchRecord>>;
  /**
   * Stores what a look made of the batch, only if the stored version is still `expectedVersion` (false: another
   * look got there first). It never writes `cancelRequested`, so a cancel asked for meanwhile is kept.
   */
  save(batch: BatchRecord, expectedVersion: number): Promise<boolean>;
  /** Marks the batch to be cancelled, unless it has settled (false then, or when there is no such batch). */
  requestCancel(tenantId: string, batchId: string): Promise<boolean>;
  /** Appends an attempt to deliver batch.completed; the first takes the batch out of the sweeper's view. */
  recordDeliveryAttempt(tenantId: string, batchId: string, attempt: DeliveryAttempt, state: DeliveryState, chainId: string): Promise<void>;
  /**
   * Batches the sweeper must look at: unsettled ones whose last look was saved before `tickBefore` (their chain
   * of looks was lost), and settled ones whose event has no attempt recorded yet.
   */
  listStalled(tickBefore: number, limit: number): Promise<BatchRecord[]>;
  /** Sets `tickAt` (only while at `version`), so the sweeper does not revive the batch again at once. */
  postpone(tenantId: string, batchId: string, version: number, tickAt: number): Promise<void>;
}
