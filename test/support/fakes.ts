import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Account, AccountStore, MessageQueue, ObjectHead, ObjectStore } from '#domain/ports';

/**
 * An object store on a temporary folder: enough S3 for the jobs (keys, tags, metadata, last write). `now` is the
 * clock that stamps writes, so a test's clock and the objects' ages agree.
 */
export class FolderObjectStore implements ObjectStore {
  readonly tags = new Map<string, Record<string, string>>();
  private readonly metadata = new Map<string, Record<string, string>>();
  private readonly modified = new Map<string, Date>();
  private constructor(
    readonly dir: string,
    private readonly now: () => Date,
  ) {}
  static async create(now: () => Date = () => new Date()) {
    return new FolderObjectStore(await mkdtemp(join(tmpdir(), 'objects-')), now);
  }
  /** Pretends the object was last written at `at` (as if it had aged in the bucket). */
  backdate(key: string, at: Date) {
    if (!this.modified.has(key)) throw new Error(`no object ${key}`);
    this.modified.set(key, at);
  }
  has(key: string) {
    return existsSync(this.path(key));
  }
  private path(key: string) {
    return join(this.dir, encodeURIComponent(key));
  }
  async putFile(key: string, filePath: string, options: { contentType: string; tags?: Record<string, string>; metadata?: Record<string, string> }) {
    await copyFile(filePath, this.path(key));
    this.tags.set(key, options.tags ?? {});
    this.metadata.set(key, options.metadata ?? {});
    this.modified.set(key, this.now());
    return { sizeBytes: (await stat(filePath)).size };
  }
  async putBytes(key: string, body: Uint8Array | string, options: { contentType: string; tags?: Record<string, string> }) {
    await writeFile(this.path(key), body);
    this.tags.set(key, options.tags ?? {});
    this.metadata.set(key, {});
    this.modified.set(key, this.now());
  }
  async copy(fromKey: string, toKey: string, options: { tags: Record<string, string> }) {
    if (!existsSync(this.path(fromKey))) throw Object.assign(new Error(`NoSuchKey: ${fromKey}`), { name: 'NoSuchKey' });
    await copyFile(this.path(fromKey), this.path(toKey));
    this.tags.set(toKey, options.tags);
    this.metadata.set(toKey, { ...(this.metadata.get(fromKey) ?? {}) });
    this.modified.set(toKey, this.now());
  }
  async getToFile(key: string, filePath: string) {
    if (!existsSync(this.path(key))) return false;
    await copyFile(this.path(key), filePath);
    return true;
  }
  async getText(key: string) {
    return existsSync(this.path(key)) ? readFile(this.path(key), 'utf8') : undefined;
  }
  async head(key: string): Promise<ObjectHead | undefined> {
    if (!existsSync(this.path(key))) return undefined;
    return {
      sizeBytes: (await stat(this.path(key))).size,
      metadata: this.metadata.get(key) ?? {},
      lastModified: this.modified.get(key) ?? this.now(),
    };
  }
  async read(key: string) {
    return readFile(this.path(key));
  }
  async delete(key: string) {
    const { rm } = await import('node:fs/promises');
    await rm(this.path(key), { force: true });
    for (const map of [this.tags, this.metadata, this.modified]) map.delete(key);
  }
  async presignGet(key: string, expiresInSeconds: number) {
    return {
      url: `https://objects.test/${key}?expires=${expiresInSeconds}`,
      expiresAt: new Date(Date.now() + expiresInSeconds * 1000).toISOString(),
    };
  }
  async presignPut(key: string, file: { contentType: string; sizeBytes: number; expiresInSeconds: number }) {
    return {
      url: `https://objects.test/${key}?put=${file.sizeBytes}&expires=${file.expiresInSeconds}`,
      expiresAt: new Date(Date.now() + file.expiresInSeconds * 1000).toISOString(),
    };
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

/** A sweeper's batches when a test has none: nothing stalled, nothing queued. */
export const noBatches = {
  batches: { listStalled: async () => [], postpone: async () => {} },
  batchQueue: { send: async () => {}, sendBatch: async () => {} },
};

/** Accounts for a test that has no test account: every caller is a live account and counts its own work only. */
export const liveAccountsOnly: Pick<AccountStore, 'get'> = { get: async () => undefined };

/** A live account and its test account (`npm run keys -- create --test`), linked as the keys CLI links them. */
export function linkedAccounts(live: string, test: string, createdAt = '2026-11-27T16:00:00Z'): Pick<AccountStore, 'get'> {
  const all: Account[] = [
    { tenantId: live, name: 'acme', createdAt, testTenantId: test },
    { tenantId: test, name: 'acme (test)', createdAt, test: true, liveTenantId: live },
  ];
  return { get: async (tenantId) => all.find((account) => account.tenantId === tenantId) };
}
