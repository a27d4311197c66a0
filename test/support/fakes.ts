import { copyFile, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageQueue, ObjectHead, ObjectStore } from '#domain/ports';

/** An object store on a temporary folder: enough S3 for the jobs (keys, tags, metadata). */
export class FolderObjectStore implements ObjectStore {
  readonly tags = new Map<string, Record<string, string>>();
  private readonly metadata = new Map<string, Record<string, string>>();
  private constructor(readonly dir: string) {}
  static async create() {
    return new FolderObjectStore(await mkdtemp(join(tmpdir(), 'objects-')));
  }
  private path(key: string) {
    return join(this.dir, encodeURIComponent(key));
  }
  async putFile(key: string, filePath: string, options: { contentType: string; tags?: Record<string, string>; metadata?: Record<string, string> }) {
    await copyFile(filePath, this.path(key));
    this.tags.set(key, options.tags ?? {});
    this.metadata.set(key, options.metadata ?? {});
    return { sizeBytes: (await stat(filePath)).size };
  }
  async putBytes(key: string, body: Uint8Array | string, options: { contentType: string; tags?: Record<string, string> }) {
    await writeFile(this.path(key), body);
    this.tags.set(key, options.tags ?? {});
  }
  async getToFile(key: string, filePath: string) {
    if (!existsSync(this.path(key))) return false;
    await copyFile(this.path(key), filePath);
    return true;
  }
  async head(key: string): Promise<ObjectHead | undefined> {
    if (!existsSync(this.path(key))) return undefined;
    return { sizeBytes: (await stat(this.path(key))).size, metadata: this.metadata.get(key) ?? {} };
  }
  async read(key: string) {
    return readFile(this.path(key));
  }
  async delete(key: string) {
    const { rm } = await import('node:fs/promises');
    await rm(this.path(key), { force: true });
  }
  async presignGet(key: string, expiresInSeconds: number) {
    return `https://objects.test/${key}?expires=${expiresInSeconds}`;
  }
  async setTags(key: string, tags: Record<string, string>) {
    this.tags.set(key, tags);
  }
}

/** A queue that records what was sent. */
export class RecordingQueue<T> implements MessageQueue<T> {
  readonly sent: T[] = [];
  async send(message: T) {
    this.sent.push(message);
  }
  async sendBatch(messages: T[]) {
    this.sent.push(...messages);
  }
  take(): T[] {
    return this.sent.splice(0, this.sent.length);
  }
}
