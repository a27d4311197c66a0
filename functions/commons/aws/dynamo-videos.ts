import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  paginateQuery,
  paginateScan,
  QueryCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '#domain/errors';
import { SWEEPER_RESENDS_AFTER_SECONDS } from '#domain/lost-events';
import type { Page, VideoRepository } from '#domain/ports';
import type { ClipResult, DeliveryAttempt, DeliveryState, VideoError, VideoOutput, VideoRecord, VideoStatus } from '#domain/video';
import { VIDEO_STATUSES } from '#domain/video';
import { isConditionFailure } from './conditions.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';

/**
 * Videos carry this in `pendingShard` until their first webhook attempt is recorded, which puts them in the
 * sparse `unfinished` index: the sweeper finds there both renders stuck past their deadline and finished
 * videos whose event was never queued (a crash between the two writes).
 */
const PENDING = 'pending';

/** Videos in DynamoDB. Every state change is a conditional update, so redelivered messages cannot apply one twice. */
export class DynamoVideoRepository implements VideoRepository {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(video: VideoRecord): Promise<void> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...video, pendingShard: PENDING },
          ConditionExpression: 'attribute_not_exists(videoId)',
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError(`Video ${video.videoId} already exists.`, 'video_exists');
      throw error;
    }
  }

  async get(videoId: string): Promise<VideoRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { videoId }, ConsistentRead: true }));
    return Item ? strip(Item) : undefined;
  }

  async listByTenant(tenantId: string, options: { limit: number; cursor?: string }): Promise<Page<VideoRecord>> {
    const result = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'byTenant',
        KeyConditionExpression: 'tenantId = :t',
        ExpressionAttributeValues: { ':t': tenantId },
        ScanIndexForward: false,
        Limit: options.limit,
        ExclusiveStartKey: decodeCursor(options.cursor, { tenantId }, ['videoId', 'tenantId', 'createdAt']),
      }),
    );
    return { items: (result.Items ?? []).map(strip), nextCursor: encodeCursor(result.LastEvaluatedKey) };
  }

  async countByStatus(tenantId: string, upTo: number): Promise<{ counts: Record<VideoStatus, number>; complete: boolean }> {
    const counts = Object.fromEntries(VIDEO_STATUSES.map((s) => [s, 0])) as Record<VideoStatus, number>;
    let counted = 0;
    let more = false;
    const pages = paginateQuery(
      { client: this.client, pageSize: Math.min(1000, upTo) },
      {
        TableName: this.tableName,
        IndexName: 'byTenant',
        KeyConditionExpression: 'tenantId = :t',
        ExpressionAttributeValues: { ':t': tenantId },
        ProjectionExpression: '#s',
        ExpressionAttributeNames: { '#s': 'status' },
        ScanIndexForward: false,
      },
    );
    for await (const page of pages) {
      for (const item of (page.Items ?? []).slice(0, upTo - counted))
        counts[item.status as VideoStatus] = (counts[item.status as VideoStatus] ?? 0) + 1;
      counted = Math.min(upTo, counted + (page.Items?.length ?? 0));
      more = page.LastEvaluatedKey !== undefined;
      if (counted >= upTo) break;
    }
    return { counts, complete: !more };
  }

  async countInProgress(tenantId: string, createdSince: string, upTo: number): Promise<number> {
    let count = 0;
    const pages = paginateQuery(
      { client: this.client },
      {
        TableName: this.tableName,
        IndexName: 'byTenant',
        KeyConditionExpression: 'tenantId = :t AND createdAt >= :since',
        // Work, not only renders: a finished video whose event is still on its way (a slow or hanging webhook)
        // holds its account's room until it is delivered or given up.
        FilterExpression: '#s IN (:queued, :rendering, :assembling) OR delivery.#ds IN (:pending, :delivering)',
        ExpressionAttributeNames: { '#s': 'status', '#ds': 'state' },
        ExpressionAttributeValues: {
          ':t': tenantId,
          ':since': createdSince,
          ':queued': 'queued',
          ':rendering': 'rendering',
          ':assembling': 'assembling',
          ':pending': 'pending',
          ':delivering': 'delivering',
        },
        Select: 'COUNT',
      },
    );
    for await (const page of pages) {
      count += page.Count ?? 0;
      if (count >= upTo) break;
    }
    return count;
  }

  async delete(videoId: string): Promise<void> {
    await this.client.send(new DeleteCommand({ TableName: this.tableName, Key: { videoId } }));
  }

  markClipRendering(videoId: string, clipIndex: number): Promise<VideoRecord | undefined> {
    return this.updateOrCurrent(videoId, {
      UpdateExpression: 'SET #status = :rendering, clipResults.#i = :clip, updatedAt = :now',
      ConditionExpression: '#status IN (:queued, :rendering) AND (attribute_not_exists(clipResults.#i) OR clipResults.#i.#status <> :rendered)',
      ExpressionAttributeNames: { '#status': 'status', '#i': String(clipIndex) },
      ExpressionAttributeValues: {
        ':rendering': 'rendering',
        ':queued': 'queued',
        ':rendered': 'rendered',
        ':clip': { status: 'rendering' } satisfies ClipResult,
        ':now': this.now().toISOString(),
      },
    });
  }

  recordRecordingSeconds(videoId: string, clipIndex: number, seconds: number): Promise<VideoRecord | undefined> {
    return this.updateOrCurrent(videoId, {
      UpdateExpression: 'SET clipResults.#i.#seconds = :seconds, updatedAt = :now',
      ConditionExpression: '#status IN (:queued, :rendering) AND clipResults.#i.#status = :rendering',
      ExpressionAttributeNames: { '#status': 'status', '#i': String(clipIndex), '#seconds': 'recordingSeconds' },
      ExpressionAttributeValues: {
        ':seconds': seconds,
        ':now': this.now().toISOString(),
        ':queued': 'queued',
        ':rendering': 'rendering',
      },
    });
  }

  /** A conditional update of the video: the record as updated, or as it stands when the condition does not hold. */
  private async updateOrCurrent(
    videoId: string,
    update: Pick<UpdateCommandInput, 'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>,
  ): Promise<VideoRecord | undefined> {
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({ TableName: this.tableName, Key: { videoId }, ...update, ReturnValues: 'ALL_NEW' }),
      );
      return Attributes ? strip(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return this.get(videoId);
      throw error;
    }
  }

  async recordClipRendered(videoId: string, clipIndex: number, result: ClipResult) {
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { videoId },
          UpdateExpression: 'SET clipResults.#i = :result, updatedAt = :now ADD renderedCount :one',
          ConditionExpression: '#status IN (:queued, :rendering) AND (attribute_not_exists(clipResults.#i) OR clipResults.#i.#status <> :rendered)',
          ExpressionAttributeNames: { '#status': 'status', '#i': String(clipIndex) },
          ExpressionAttributeValues: {
            ':result': result,
            ':now': this.now().toISOString(),
            ':one': 1,
            ':queued': 'queued',
            ':rendering': 'rendering',
            ':rendered': 'rendered',
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { allRendered: Attributes?.renderedCount === Attributes?.clipCount, firstTime: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const video = await this.get(videoId);
      const allRendered = !!video && video.renderedCount === video.clipCount && (video.status === 'rendering' || video.status === 'assembling');
      return { allRendered, firstTime: false };
    }
  }

  /**
   * A lease, not a flag: a duplicate assemble message (SQS delivers at least once, and the render job re-sends
   * on redelivery) finds it held and stands down, while the message of an assembler that crashed claims again
   * once its lease has run out. `assemblyLeaseUntil` is in epoch seconds.
   */
  async claimAssembly(videoId: string, leaseSeconds: number): Promise<boolean> {
    const nowSeconds = Math.floor(this.now().getTime() / 1000);
    return this.conditional({
      Key: { videoId },
      UpdateExpression: 'SET #status = :assembling, assemblyLeaseUntil = :leaseUntil, updatedAt = :now',
      ConditionExpression: '(#status = :rendering AND renderedCount = clipCount) OR (#status = :assembling AND assemblyLeaseUntil < :nowSeconds)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':assembling': 'assembling',
        ':rendering': 'rendering',
        ':leaseUntil': nowSeconds + leaseSeconds,
        ':nowSeconds': nowSeconds,
        ':now': this.now().toISOString(),
      },
    });
  }

  async complete(videoId: string, output: VideoOutput, eventId: string): Promise<boolean> {
    const now = this.now().toISOString();
    return this.conditional({
      Key: { videoId },
      UpdateExpression:
        'SET #status = :completed, #output = :output, completedAt = :now, updatedAt = :now, delivery.eventId = :eventId, deadlineAt = :notifyBy',
      ConditionExpression: '#status = :assembling',
      ExpressionAttributeNames: { '#status': 'status', '#output': 'output' },
      ExpressionAttributeValues: {
        ':completed': 'completed',
        ':assembling': 'assembling',
        ':output': output,
        ':now': now,
        ':eventId': eventId,
        ':notifyBy': this.notifyBy(),
      },
    });
  }

  async fail(videoId: string, error: VideoError, eventId: string): Promise<boolean> {
    const now = this.now().toISOString();
    return this.conditional({
      Key: { videoId },
      UpdateExpression:
        'SET #status = :failed, #error = :error, completedAt = :now, updatedAt = :now, delivery.eventId = :eventId, deadlineAt = :notifyBy',
      ConditionExpression: '#status IN (:queued, :rendering, :assembling)',
      ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
      ExpressionAttributeValues: {
        ':failed': 'failed',
        ':queued': 'queued',
        ':rendering': 'rendering',
        ':assembling': 'assembling',
        ':error': error,
        ':now': now,
        ':eventId': eventId,
        ':notifyBy': this.notifyBy(),
      },
    });
  }

  /** Every video, page by page: for the local runtime's recovery after a restart (never on AWS). */
  async *scanAll(): AsyncGenerator<VideoRecord> {
    for await (const page of paginateScan({ client: this.client }, { TableName: this.tableName }))
      for (const item of page.Items ?? []) yield strip(item);
  }

  async listOverdue(nowEpochSeconds: number, limit: number): Promise<VideoRecord[]> {
    const { Items } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'unfinished',
        KeyConditionExpression: 'pendingShard = :p AND deadlineAt < :now',
        ExpressionAttributeValues: { ':p': PENDING, ':now': nowEpochSeconds },
        Limit: limit,
      }),
    );
    return (Items ?? []).map(strip);
  }

  async recordDeliveryAttempt(videoId: string, attempt: DeliveryAttempt, state: DeliveryState, chainId: string): Promise<void> {
    await this.client
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { videoId },
          UpdateExpression:
            'SET delivery.attempts = list_append(delivery.attempts, :a), delivery.#state = :s, delivery.chainId = :c, updatedAt = :now REMOVE pendingShard',
          ConditionExpression: 'attribute_exists(videoId)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':a': [attempt], ':s': state, ':c': chainId, ':now': this.now().toISOString() },
        }),
      )
      .catch((error) => {
        if (!isConditionFailure(error)) throw error; // deleted meanwhile: nothing to record
      });
  }

  async settleWithoutEvent(videoId: string): Promise<void> {
    await this.conditional({
      Key: { videoId },
      UpdateExpression: 'REMOVE pendingShard',
      ConditionExpression: 'attribute_exists(pendingShard) AND delivery.#state = :none AND #status IN (:completed, :failed)',
      ExpressionAttributeNames: { '#state': 'state', '#status': 'status' },
      ExpressionAttributeValues: { ':none': 'none', ':completed': 'completed', ':failed': 'failed' },
    });
  }

  async postponeDeadline(videoId: string, deadlineAt: number): Promise<void> {
    await this.conditional({
      Key: { videoId },
      UpdateExpression: 'SET deadlineAt = :d',
      ConditionExpression: 'attribute_exists(pendingShard)',
      ExpressionAttributeValues: { ':d': deadlineAt },
    });
  }

  private notifyBy() {
    return Math.floor(this.now().getTime() / 1000) + SWEEPER_RESENDS_AFTER_SECONDS;
  }

  private async conditional(input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>): Promise<boolean> {
    try {
      await this.client.send(new UpdateCommand({ TableName: this.tableName, ...input }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}

function strip(item: Record<string, unknown>): VideoRecord {
  const { pendingShard: _ignored, ...record } = item;
  return record as unknown as VideoRecord;
}
