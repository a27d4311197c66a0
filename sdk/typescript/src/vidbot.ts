import { createApi, newIdempotencyKey, unwrap, type VidbotApi, type VidbotOptions } from './client.ts';
import { VidbotError, VideoFailedError } from './errors.ts';
import { rowsToCsv, toForm } from './forms.ts';
import type { Batch, BatchDryRun, CreatedBatch, CreatedVideo, CreateVideoRequest, TemplateRequest, Video, VideoEvent, Voice } from './types.ts';
import { type UploadedFile, type UploadInput, uploadFile } from './uploads.ts';
import { pollUntil, type WaitOptions } from './wait.ts';

export interface CreateOptions {
  /** Sent as Idempotency-Key: the same key within a day answers the first create again. Default: a fresh one. */
  idempotencyKey?: string;
  /** Send the interface's multipart form instead of JSON (the same fields; `clips` as JSON text). */
  form?: boolean;
}

export interface BatchInput {
  /** Receives batch.completed (and each row's video.* events with notify_each). */
  webhook: string;
  /** One object of variable values per video, or a CSV file (text, a Blob or a File) with a header row. */
  rows: Record<string, string>[] | string | Blob;
  notify_each?: boolean;
  idempotencyKey?: string;
}

export interface WaitForVideoOptions extends WaitOptions<Video> {
  /** Your receiver's verified event for this video: the wait ends as soon as it comes, instead of at the next look. */
  event?: Promise<VideoEvent>;
}

const isSettled = (video: Video) => video.status === 'completed' || video.status === 'failed';

/**
 * The vidbot API from TypeScript. `api` is the typed transport for every operation of the OpenAPI document; the
 * methods here add what a generator cannot know: forms, uploads, waiting, batches from CSV, downloads.
 */
export class Vidbot {
  readonly api: VidbotApi;
  readonly #options: VidbotOptions;

  constructor(options: VidbotOptions) {
    this.#options = options;
    this.api = createApi(options);
  }

  async createVideo(request: CreateVideoRequest, options: CreateOptions = {}): Promise<CreatedVideo> {
    return unwrap(
      await this.api.POST('/v1/bot', {
        body: request,
        params: { header: { 'Idempotency-Key': options.idempotencyKey ?? newIdempotencyKey() } },
        ...(options.form && { bodySerializer: (body: CreateVideoRequest) => toForm(body) }),
      }),
    );
  }

  async getVideo(videoId: string): Promise<Video> {
    return unwrap(await this.api.GET('/v1/video/{id}', { params: { path: { id: videoId } } }));
  }

  /** Looks at the video until it is completed (returned) or failed (VideoFailedError), backing off, within the deadline. */
  async waitForVideo(videoId: string, options: WaitForVideoOptions = {}): Promise<Video> {
    const early = options.event?.then((event) => {
      if (event.data.video_id !== videoId) throw new Error(`the event is of ${event.data.video_id}, not ${videoId}`);
    });
    const video = await pollUntil(
      videoId,
      () => this.getVideo(videoId),
      isSettled,
      (v) => v.status,
      { ...options, early },
    );
    if (video.status === 'failed')
      throw new VideoFailedError(
        videoId,
        video.error?.code ?? 'failed',
        video.error?.message ?? 'the video failed',
        video.error?.clip_index ?? undefined,
      );
    return video;
  }

  /** The finished video's (or voice's) bytes, from a fresh presigned link. */
  async download(videoId: string): Promise<{ bytes: Uint8Array; contentType: string }> {
    const video = await this.getVideo(videoId);
    const url = video.output?.download_url;
    if (video.status !== 'completed' || !url) throw new VidbotError(409, 'video_not_ready', `${videoId} is ${video.status}, not completed`);
    const response = await (this.#options.fetch ?? globalThis.fetch)(new Request(url));
    if (!response.ok) throw VidbotError.from(response, undefined);
    return { bytes: new Uint8Array(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? video.output!.content_type };
  }

  async listBots() {
    return unwrap(await this.api.GET('/v1/bot'));
  }

  async listVoices(language?: string): Promise<Voice[]> {
    return unwrap(await this.api.GET('/v1/voices', { params: { query: language ? { language } : {} } })).voices;
  }

  async putTemplate(uid: string, template: TemplateRequest) {
    return unwrap(await this.api.PUT('/v1/templates/{uid}', { params: { path: { uid } }, body: template }));
  }

  /** One video per row: JSON rows, or a CSV (sent as the form's file), every row checked before anything is made. */
  async sendBatch(templateUid: string, input: BatchInput): Promise<CreatedBatch> {
    return (await this.#postBatch(templateUid, input, false)) as CreatedBatch;
  }

  /** Checks every row as sendBatch would, and makes nothing: the first row's request, its placeholders filled. */
  async checkBatch(templateUid: string, input: BatchInput): Promise<BatchDryRun> {
    return (await this.#postBatch(templateUid, input, true)) as BatchDryRun;
  }

  async #postBatch(templateUid: string, input: BatchInput, dryRun: boolean) {
    const { idempotencyKey, rows, ...fields } = input;
    const params = { path: { uid: templateUid }, header: { 'Idempotency-Key': idempotencyKey ?? newIdempotencyKey() } };
    if (Array.isArray(rows))
      return unwrap(await this.api.POST('/v1/templates/{uid}/batches', { params, body: { ...fields, dry_run: dryRun, rows } }));
    const csv = rows instanceof File ? rows : new File([rows], 'rows.csv', { type: 'text/csv' });
    return unwrap(
      await this.api.POST('/v1/templates/{uid}/batches', {
        params,
        body: { ...fields, dry_run: dryRun, rows: '' },
        bodySerializer: () => toForm({ ...fields, dry_run: dryRun, rows: csv }),
      }),
    );
  }

  /** The CSV text of rows (for a file to keep, or to see what sendBatch sends). */
  static csvOf = rowsToCsv;

  async getBatch(batchId: string): Promise<Batch> {
    return unwrap(await this.api.GET('/v1/batches/{id}', { params: { path: { id: batchId } } }));
  }

  /** Looks at the batch until every row has settled (status completed or cancelled). */
  async waitForBatch(batchId: string, options: WaitOptions<Batch> = {}): Promise<Batch> {
    return pollUntil(
      batchId,
      () => this.getBatch(batchId),
      (b) => b.completed_at !== null,
      (b) => b.status,
      options,
    );
  }

  /** Sends a file to the service (POST /v1/uploads, then the PUT it signs) and returns its upload_id. */
  async upload(file: UploadInput): Promise<UploadedFile> {
    return uploadFile(this.api, this.#options, file);
  }

  async inbox() {
    return unwrap(await this.api.GET('/v1/inbox'));
  }

  async account() {
    return unwrap(await this.api.GET('/v1/account'));
  }
}
