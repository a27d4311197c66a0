import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ObjectHead, ObjectStore, PresignedLink } from '#domain/ports';

const SIGNED_UPLOAD_HEADERS = new Set(['content-type', 'content-length']);
const tagging = (tags?: Record<string, string>) => (tags ? new URLSearchParams(tags).toString() : undefined);
const isMissing = (error: unknown) =>
  error instanceof NoSuchKey ||
  error instanceof NotFound ||
  (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 404;

export class S3ObjectStore implements ObjectStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async putFile(key: string, filePath: string, options: { contentType: string; tags?: Record<string, string>; metadata?: Record<string, string> }) {
    const { size } = await stat(filePath);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: createReadStream(filePath),
        ContentLength: size,
        ContentType: options.contentType,
        Tagging: tagging(options.tags),
        Metadata: options.metadata,
      }),
    );
    return { sizeBytes: size };
  }

  async putBytes(key: string, body: Uint8Array | string, options: { contentType: string; tags?: Record<string, string> }) {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: options.contentType, Tagging: tagging(options.tags) }),
    );
  }

  async getToFile(key: string, filePath: string): Promise<boolean> {
    try {
      const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!Body) return false;
      await pipeline(Body as Readable, createWriteStream(filePath));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async getText(key: string): Promise<string | undefined> {
    try {
      const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return Body ? await Body.transformToString('utf8') : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async head(key: string): Promise<ObjectHead | undefined> {
    try {
      const result = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { sizeBytes: result.ContentLength ?? 0, metadata: result.Metadata ?? {}, lastModified: result.LastModified ?? new Date(0) };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async copy(fromKey: string, toKey: string, options: { tags: Record<string, string> }): Promise<void> {
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.bucket,
        Key: toKey,
        // The source is bucket/key, URL-encoded (keys here are [a-z0-9/.-], but encoding is the contract).
        CopySource: `${this.bucket}/${fromKey.split('/').map(encodeURIComponent).join('/')}`,
        MetadataDirective: 'COPY',
        TaggingDirective: 'REPLACE',
        Tagging: tagging(options.tags),
      }),
    );
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async presignGet(key: string, expiresInSeconds: number, downloadName?: string): Promise<PresignedLink> {
    const { seconds, expiresAt } = await this.linkLifetime(expiresInSeconds);
    const url = await getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentDisposition: downloadName ? `attachment; filename="${downloadName.replace(/[^\w.-]/g, '_')}"` : undefined,
      }),
      { expiresIn: seconds },
    );
    return { url, expiresAt };
  }

  async presignPut(key: string, file: { contentType: string; sizeBytes: number; expiresInSeconds: number }): Promise<PresignedLink> {
    const { seconds, expiresAt } = await this.linkLifetime(file.expiresInSeconds);
    // Content-Type and Content-Length are signed headers: S3 refuses a PUT whose type or length differs.
    const url = await getSignedUrl(
      this.client,
      new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: file.contentType, ContentLength: file.sizeBytes }),
      { expiresIn: seconds, signableHeaders: SIGNED_UPLOAD_HEADERS },
    );
    return { url, expiresAt };
  }

  /**
   * The origin every presigned link of this store has (the bucket's regional endpoint on AWS, the emulator's
   * locally): the client's own endpoint rules for this bucket, as the presigner applies them, without signing a
   * link (a signed link is a use of s3:GetObject, which a function that only names the bucket is not granted).
   */
  async linkOrigin(): Promise<string> {
    const config = this.client.config;
    const configured = await config.serviceConfiguredEndpoint?.();
    const custom = config.endpoint ? await config.endpoint() : undefined;
    const { url } = config.endpointProvider({
      Bucket: this.bucket,
      Region: await config.region(),
      ForcePathStyle: config.forcePathStyle,
      UseFIPS: await config.useFipsEndpoint(),
      UseDualStack: await config.useDualstackEndpoint(),
      Accelerate: config.useAccelerateEndpoint,
      Endpoint: configured ?? (custom ? `${custom.protocol}//${custom.hostname}${custom.port ? `:${custom.port}` : ''}${custom.path}` : undefined),
    });
    return url.origin;
  }

  /**
   * A link signed with temporary credentials (a Lambda role's) dies with them, whatever X-Amz-Expires says: ask
   * for no longer than they last, and say when the link really ends.
   */
  private async linkLifetime(expiresInSeconds: number): Promise<{ seconds: number; expiresAt: string }> {
    const credentials = await this.client.config.credentials();
    const now = Date.now();
    const untilCredentialsExpire = credentials.expiration ? Math.floor((credentials.expiration.getTime() - now) / 1000) - 60 : Infinity;
    const seconds = Math.max(60, Math.min(expiresInSeconds, untilCredentialsExpire));
    return { seconds, expiresAt: new Date(now + seconds * 1000).toISOString() };
  }
}
