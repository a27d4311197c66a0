/**
 * The local runtime's data dir (`.local/`): private to the user who runs it. The dir and its subdirs are 0700,
 * every file the runtime writes is 0600 (modes of a dir or file left by an older start are fixed on start), and
 * it holds one random secret from which the emulators' credentials and the key that seals the dev tenant's
 * secrets are derived.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
const SECRET_FILE = 'local-secret';
const PORTS_FILE = 'ports.json';

/**
 * Creates the data dir (0700), or makes an existing one private again: the dir, its files and its subdirs. What
 * the emulators write deeper (LevelDB, s3rver's files) keeps their umask's modes, closed by the dirs above.
 */
export async function prepareDataDir(dataDir: string) {
  await mkdir(dataDir, { recursive: true, mode: DIR_MODE });
  await chmod(dataDir, DIR_MODE);
  for (const entry of await readdir(dataDir, { withFileTypes: true })) {
    const path = join(dataDir, entry.name);
    if (entry.isDirectory()) await chmod(path, DIR_MODE);
    else if (entry.isFile()) await chmod(path, FILE_MODE);
  }
}

/** Creates a subdir of the data dir, 0700. */
export const privateDir = (path: string) => mkdir(path, { recursive: true, mode: DIR_MODE });

/** Writes a file readable by its owner only, whatever mode an older copy had. */
export async function writePrivateFile(path: string, content: string) {
  await writeFile(path, content, { mode: FILE_MODE });
  await chmod(path, FILE_MODE);
}

/** The data dir's random secret (32 bytes), created on first use. */
async function localSecret(dataDir: string): Promise<Buffer> {
  const file = join(dataDir, SECRET_FILE);
  if (existsSync(file)) {
    const secret = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url');
    if (secret.length === 32) return secret;
    throw new Error(`${file} is not a 32-byte base64url secret; delete it to make a new one (clients and links of this data dir then stop working)`);
  }
  const secret = randomBytes(32);
  await writePrivateFile(file, `${secret.toString('base64url')}\n`);
  return secret;
}

const derive = (secret: Buffer, purpose: string) => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `vidbot-local ${purpose}`, 32));

export interface LocalCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * The only credentials the emulators accept: every SDK client of the runtime and every function worker signs
 * with them, as a Lambda signs with its role's keys.
 */
export async function emulatorCredentials(dataDir: string): Promise<LocalCredentials> {
  return { accessKeyId: 'VIDBOTLOCAL', secretAccessKey: derive(await localSecret(dataDir), 'emulators').toString('base64url') };
}

/** A file's secrets sealed with the data dir's key (AES-256-GCM): `v1.<iv>.<tag>.<ciphertext>`, base64url. */
export async function seal(dataDir: string, plaintext: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derive(await localSecret(dataDir), 'sealed files'), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

export async function unseal(dataDir: string, sealed: string): Promise<string> {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('sealed value has an unknown format');
  const decipher = createDecipheriv('aes-256-gcm', derive(await localSecret(dataDir), 'sealed files'), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

export interface RememberedPorts {
  dynamodb?: number;
  s3?: number;
  sqs?: number;
}

/** The emulator ports of the previous start: presigned links name them, so they stay valid across restarts. */
export async function rememberedPorts(dataDir: string): Promise<RememberedPorts> {
  const file = join(dataDir, PORTS_FILE);
  if (!existsSync(file)) return {};
  const saved = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  const port = (value: unknown) => (Number.isInteger(value) && (value as number) > 0 && (value as number) < 65536 ? (value as number) : undefined);
  return { dynamodb: port(saved.dynamodb), s3: port(saved.s3), sqs: port(saved.sqs) };
}

export const rememberPorts = (dataDir: string, ports: Required<RememberedPorts>) =>
  writePrivateFile(join(dataDir, PORTS_FILE), `${JSON.stringify(ports, null, 2)}\n`);
