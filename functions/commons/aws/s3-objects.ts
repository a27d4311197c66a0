import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  PutObjectTaggingCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ObjectHead, ObjectStore } from '#domain/ports';

const tagging = (tags?: Record<string, string>) => (tags ? new URLSearchParams(tags).toString() : undefined);
const isMissing = (error: unknown) => error instanceof NoSuchKey || error instanceof NotFound || (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 404;

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
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: options.contentType, Tagging: tagging(options.tags) }));
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

  async head(key: string): Promise<ObjectHead | undefined> {
    try {
      const result = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { sizeBytes: result.ContentLength ?? 0, metadata: result.Metadata ?? {} };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async presignGet(key: string, expiresInSeconds: number, downloadName?: string): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentDisposition: downloadName ? `attachment; filename="${downloadName.replace(/[^\w.-]/g, '_')}"` : undefined,
      }),
      { expiresIn: expiresInSeconds },
    );
  }

  async setTags(key: string, tags: Record<string, string>): Promise<void> {
    await this.client.send(
      new PutObjectTaggingCommand({ Bucket: this.bucket, Key: key, Tagging: { TagSet: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })) } }),
    );
  }
}
