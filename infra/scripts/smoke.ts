/**
 * `npm run smoke -- --url <ApiUrl> --key <API key> [--webhook <url>] [--timeout <seconds>]`: checks a running vidbot
 * the way a caller sees it, over HTTPS, with nothing but the API URL and a key.
 *
 *   1. GET /health answers 200 {"status":"ok"} without a key;
 *   2. without a key, and with a well-formed unknown key, a keyed route answers 401 in our JSON error shape
 *      ({error:{code,message}}) when the caller sends `Accept: application/json`;
 *   3. POST /v1/bot/ (trailing slash: the interface's form) lists the bots;
 *   4. a voice-only video (create_video: false) of one short clip is created and polled to `completed`;
 *   5. GET /v1/video/{id}/download redirects to the file, and the file is an MP3 (ID3 tag or MPEG frame sync).
 * Then the video is deleted if the API allows it yet (best effort, never a failure).
 *
 * The URL is the stack's `ApiUrl` output (https://<id>.execute-api.<region>.amazonaws.com/prod/) or the local
 * runtime's (http://127.0.0.1:3000, served at the root); an execute-api URL without its stage gets /prod.
 *
 * The API requires a webhook. The default, https://example.com/vidbot-smoke, is a public name (IANA's documentation
 * domain), so the address guard accepts it on AWS, where loopback and private addresses are refused. The event sent
 * there is not checked: its delivery may fail (locally there is no DNS for it) without failing the smoke.
 *
 * Each check prints its time; the first failure ends the run with a message and exit code 1.
 */
import { parseArgs } from 'node:util';
import { api } from '../wiring.ts';

export interface SmokeOptions {
  /** The API's base URL, with the stage on AWS. */
  url: string;
  key: string;
  webhook?: string;
  /** How long the video may take to complete. @default 300 */
  timeoutSeconds?: number;
  /** @default 2000 */
  pollIntervalMs?: number;
  log?: (line: string) => void;
}

export class SmokeFailedError extends Error {
  override name = 'SmokeFailedError';
}

export interface SmokeResult {
  videoId: string;
  bytes: number;
  checks: { name: string; ms: number; detail: string }[];
}

const DEFAULT_WEBHOOK = 'https://example.com/vidbot-smoke';

/** The base URL without a trailing slash; an execute-api URL without a path gets the stage. */
export function baseUrlOf(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname.includes('.execute-api.') && (parsed.pathname === '/' || parsed.pathname === '')) parsed.pathname = `/${api.stageName}`;
  return parsed.toString().replace(/\/+$/, '');
}

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json?: any;
}

async function call(url: string, init: RequestInit = {}): Promise<Reply> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'manual', ...init, signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new SmokeFailedError(`${init.method ?? 'GET'} ${url} did not answer: ${(error as Error).cause ?? (error as Error).message}`);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

const show = (reply: Reply) => `${reply.status} ${reply.text.slice(0, 300)}`;

function expectStatus(what: string, reply: Reply, status: number): void {
  if (reply.status !== status) throw new SmokeFailedError(`${what}: expected ${status}, got ${show(reply)}`);
}

function expectErrorShape(what: string, reply: Reply, code: string): void {
  expectStatus(what, reply, 401);
  const contentType = reply.headers.get('content-type') ?? '';
  if (!contentType.includes('application/json'))
    throw new SmokeFailedError(`${what}: expected a JSON body, got Content-Type "${contentType}": ${show(reply)}`);
  const error = reply.json?.error;
  if (error?.code !== code || typeof error.message !== 'string' || !error.message)
    throw new SmokeFailedError(`${what}: expected {"error":{"code":"${code}","message":"…"}}, got ${show(reply)}`);
}

/** An MP3 starts with an ID3v2 tag or an MPEG audio frame (11 sync bits, layer III). */
export function looksLikeMp3(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  if (bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) return true; // "ID3"
  return bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0 && (bytes[1]! & 0x06) === 0x02;
}

/** A well-formed key that no account holds: the authorizer has to look it up to refuse it. */
function unknownKey(): string {
  return `vb_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`;
}

/** What every check needs: the base URL, the key's headers, where the lines go. */
interface Caller {
  base: string;
  auth: { Authorization: string; Accept: string };
  log: (line: string) => void;
}

export async function runSmoke(options: SmokeOptions): Promise<SmokeResult> {
  const base = baseUrlOf(options.url);
  const log = options.log ?? ((line: string) => console.log(line));
  const caller: Caller = { base, auth: { Authorization: `Bearer ${options.key}`, Accept: 'application/json' }, log };
  const checks: SmokeResult['checks'] = [];
  const check = checker(checks, log);

  log(`smoke: ${base}`);
  await check('GET /health', () => health(caller));
  await check('GET /v1/video without a key: JSON 401', () => refusedWithoutKey(caller));
  await check('GET /v1/video with an unknown key: JSON 401', () => refusedUnknownKey(caller));
  const botUid = await check('POST /v1/bot/ lists the bots', () => listBots(caller));
  const videoId = await check('POST /v1/bot creates a voice-only video', () => createVoiceOnly(caller, botUid, options.webhook ?? DEFAULT_WEBHOOK));
  const timeoutMs = (options.timeoutSeconds ?? 300) * 1000;
  await check(`GET /v1/video/{id} until completed`, () => untilCompleted(caller, videoId, timeoutMs, options.pollIntervalMs ?? 2000));
  const bytes = await check('GET /v1/video/{id}/download is an MP3', () => downloadMp3(caller, videoId));
  await cleanUp(caller, videoId);

  log(`smoke: all ${checks.length} checks passed in ${(checks.reduce((sum, c) => sum + c.ms, 0) / 1000).toFixed(1)} s`);
  return { videoId, bytes, checks };
}

/** Runs one check: its time and detail logged and recorded, or its failure logged and thrown as a SmokeFailedError. */
function checker(checks: SmokeResult['checks'], log: (line: string) => void) {
  return async function check<T>(name: string, body: () => Promise<[T, string]>): Promise<T> {
    const started = performance.now();
    try {
      const [value, detail] = await body();
      const ms = Math.round(performance.now() - started);
      checks.push({ name, ms, detail });
      log(`ok    ${name.padEnd(44)} ${String(ms).padStart(6)} ms  ${detail}`);
      return value;
    } catch (error) {
      const ms = Math.round(performance.now() - started);
      log(`FAIL  ${name.padEnd(44)} ${String(ms).padStart(6)} ms  ${(error as Error).message}`);
      throw error instanceof SmokeFailedError ? error : new SmokeFailedError(`${name}: ${(error as Error).message}`);
    }
  };
}

async function health({ base }: Caller): Promise<[undefined, string]> {
  const reply = await call(`${base}/health`);
  expectStatus('GET /health', reply, 200);
  if (reply.json?.status !== 'ok') throw new SmokeFailedError(`GET /health: expected {"status":"ok"}, got ${show(reply)}`);
  return [undefined, 'status ok'];
}

async function refusedWithoutKey({ base }: Caller): Promise<[undefined, string]> {
  const reply = await call(`${base}/v1/video`, { headers: { Accept: 'application/json' } });
  expectErrorShape('GET /v1/video without a key', reply, 'unauthorized');
  return [undefined, `401 ${reply.json.error.code}`];
}

async function refusedUnknownKey({ base }: Caller): Promise<[undefined, string]> {
  const reply = await call(`${base}/v1/video`, { headers: { Accept: 'application/json', Authorization: `Bearer ${unknownKey()}` } });
  expectErrorShape('GET /v1/video with an unknown key', reply, 'unauthorized');
  return [undefined, `401 ${reply.json.error.code}`];
}

async function listBots({ base, auth }: Caller): Promise<[string, string]> {
  const reply = await call(`${base}/v1/bot/`, { method: 'POST', headers: auth });
  expectStatus('POST /v1/bot/ (list bots) with the key', reply, 200);
  const bots = reply.json?.bots;
  if (!Array.isArray(bots) || bots.length === 0 || typeof bots[0]?.uid !== 'string')
    throw new SmokeFailedError(`POST /v1/bot/: expected {"bots":[…]}, got ${show(reply)}`);
  return [bots[0].uid as string, `${bots.length} bots: ${bots.map((b: { uid: string }) => b.uid).join(', ')}`];
}

async function createVoiceOnly({ base, auth }: Caller, botUid: string, webhook: string): Promise<[string, string]> {
  const reply = await call(`${base}/v1/bot`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      webhook,
      create_video: false,
      clips: [{ bot_uid: botUid, text: 'This is the vidbot smoke test.', clip_name: 'smoke' }],
    }),
  });
  expectStatus('POST /v1/bot (create, create_video false)', reply, 202);
  const id = reply.json?.video_id;
  if (typeof id !== 'string') throw new SmokeFailedError(`POST /v1/bot: no video_id in ${show(reply)}`);
  return [id, `${id} (${botUid})`];
}

async function untilCompleted({ base, auth, log }: Caller, videoId: string, timeoutMs: number, pollMs: number): Promise<[undefined, string]> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const reply = await call(`${base}/v1/video/${videoId}`, { headers: auth });
    expectStatus(`GET /v1/video/${videoId}`, reply, 200);
    const video = reply.json;
    if (video.status !== last) log(`      ${videoId} ${video.status}`);
    last = video.status;
    if (video.status === 'completed') {
      const output = video.output ?? {};
      if (output.kind !== 'audio' || output.content_type !== 'audio/mpeg')
        throw new SmokeFailedError(`video ${videoId} completed with output ${JSON.stringify(output)}, not audio/mpeg`);
      return [undefined, `completed: ${output.duration_seconds} s of audio, ${output.size_bytes} B`];
    }
    if (video.status === 'failed') throw new SmokeFailedError(`video ${videoId} failed: ${JSON.stringify(video.error)}`);
    if (Date.now() > deadline) throw new SmokeFailedError(`video ${videoId} is still ${video.status} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

async function downloadMp3({ base, auth }: Caller, videoId: string): Promise<[number, string]> {
  const redirect = await call(`${base}/v1/video/${videoId}/download`, { headers: auth });
  const location = redirect.headers.get('location');
  if (redirect.status !== 302 || !location)
    throw new SmokeFailedError(`GET /v1/video/${videoId}/download: expected 302 with a Location, got ${show(redirect)}`);
  // The link is presigned: it is fetched without the key, as a browser following the redirect would.
  let response: Response;
  try {
    response = await fetch(location, { signal: AbortSignal.timeout(60_000) });
  } catch (error) {
    throw new SmokeFailedError(
      `the download link ${new URL(location).origin}… did not answer: ${(error as Error).cause ?? (error as Error).message}`,
    );
  }
  const body = new Uint8Array(await response.arrayBuffer());
  if (response.status !== 200)
    throw new SmokeFailedError(`the download link answered ${response.status}: ${Buffer.from(body).toString('utf8').slice(0, 300)}`);
  if (!looksLikeMp3(body)) throw new SmokeFailedError(`the download is not an MP3 (starts with ${Buffer.from(body.subarray(0, 8)).toString('hex')})`);
  return [body.length, `302 → ${new URL(location).host}, ${body.length} B of MP3 (${response.headers.get('content-type')})`];
}

async function cleanUp({ base, auth, log }: Caller, videoId: string): Promise<void> {
  // Best effort: while its webhook event is still being delivered (or retried), the API keeps the video (409).
  const cleanup = await call(`${base}/v1/video/${videoId}`, { method: 'DELETE', headers: auth }).catch(
    (error: Error) => ({ status: 0, text: error.message }) as Reply,
  );
  log(
    `      cleanup: ${cleanup.status === 200 ? `deleted ${videoId}` : `left ${videoId} in place (${cleanup.status} ${cleanup.json?.error?.code ?? cleanup.text.slice(0, 100)})`}`,
  );
}

async function cli(): Promise<number> {
  const { values } = parseArgs({
    options: { url: { type: 'string' }, key: { type: 'string' }, webhook: { type: 'string' }, timeout: { type: 'string' } },
  });
  const key = values.key ?? process.env.VIDBOT_API_KEY;
  if (!values.url || !key) {
    console.error('usage: npm run smoke -- --url <ApiUrl> --key <API key> [--webhook <url>] [--timeout <seconds>]  (or VIDBOT_API_KEY)');
    return 2;
  }
  try {
    await runSmoke({ url: values.url, key, webhook: values.webhook, timeoutSeconds: values.timeout ? Number(values.timeout) : undefined });
    return 0;
  } catch (error) {
    console.error(`smoke: FAILED: ${(error as Error).message}`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await cli();
