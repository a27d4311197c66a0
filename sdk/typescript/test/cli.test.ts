import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signWebhook } from '../../../functions/commons/webhooks/signature.ts';
import { loadCredentials } from '../src/cli/config.ts';
import { main } from '../src/cli/main.ts';
import { fakeService, json, videoIn } from './fake-service.ts';

let dir: string;
let out: string[];
let err: string[];
const io = () => ({ out: (t: string) => out.push(t), err: (t: string) => err.push(t), tty: false });
const account = { account_id: 'acct_1', name: 'Acme' };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vidbot-cli-'));
  out = [];
  err = [];
  vi.stubEnv('VIDBOT_CONFIG', join(dir, 'conf', 'config.json'));
  vi.stubEnv('VIDBOT_BASE_URL', '');
  vi.stubEnv('VIDBOT_API_KEY', '');
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('login', () => {
  it('checks the key, then keeps it in a file only the user can read; the environment wins over it', async () => {
    const svc = fakeService({ 'GET /v1/account': () => json(200, account) });
    vi.stubGlobal('fetch', svc.fetch);
    expect(await main(['login', '--base-url', 'http://svc', '--key', 'vb_stored'], io())).toBe(0);
    const file = join(dir, 'conf', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'conf')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ base_url: 'http://svc', api_key: 'vb_stored' });
    expect(loadCredentials()).toEqual({ baseUrl: 'http://svc', apiKey: 'vb_stored' });
    vi.stubEnv('VIDBOT_API_KEY', 'vb_env');
    expect(loadCredentials()).toEqual({ baseUrl: 'http://svc', apiKey: 'vb_env' });
  });

  it('reads the key from stdin with --key -, or from VIDBOT_API_KEY, and warns about a key typed on the command line', async () => {
    const svc = fakeService({ 'GET /v1/account': () => json(200, account) });
    vi.stubGlobal('fetch', svc.fetch);
    vi.spyOn(process, 'stdin', 'get').mockReturnValue(Readable.from([Buffer.from('vb_piped\n')]) as typeof process.stdin);
    expect(await main(['login', '--base-url', 'http://svc', '--key', '-'], io())).toBe(0);
    expect(svc.seen[0]!.headers.get('authorization')).toBe('Bearer vb_piped');
    expect(loadCredentials()).toEqual({ baseUrl: 'http://svc', apiKey: 'vb_piped' });
    expect(err).toEqual([]);
    vi.stubEnv('VIDBOT_API_KEY', 'vb_env');
    expect(await main(['login', '--base-url', 'http://svc'], io())).toBe(0);
    expect(svc.seen[1]!.headers.get('authorization')).toBe('Bearer vb_env');
    expect(err).toEqual([]);
    expect(await main(['login', '--base-url', 'http://svc', '--key', 'vb_typed'], io())).toBe(0);
    expect(err.join('\n')).toMatch(/stays in your shell history; next time use VIDBOT_API_KEY or pipe it in with --key -/);
  });

  it('refuses a key the service refuses (exit 3) and keeps nothing', async () => {
    vi.stubGlobal('fetch', fakeService({ 'GET /v1/account': () => json(401, { error: { code: 'unauthorized', message: 'Unknown key.' } }) }).fetch);
    expect(await main(['login', '--base-url', 'http://svc', '--key', 'vb_bad'], io())).toBe(3);
    expect(err.join('\n')).toMatch(/Unknown key/);
    expect(() => statSync(join(dir, 'conf', 'config.json'))).toThrow();
  });
});

describe('exit codes and --json', () => {
  beforeEach(() => {
    vi.stubEnv('VIDBOT_BASE_URL', 'http://svc');
    vi.stubEnv('VIDBOT_API_KEY', 'vb_k');
  });

  it('2 for an unknown command or option, with the usage', async () => {
    expect(await main(['render'], io())).toBe(2);
    expect(err.join('\n')).toMatch(/unknown command "render"[\s\S]*usage: vidbot/);
    expect(await main(['bots', '--colour'], io())).toBe(2);
  });

  it('4 for a refused request, naming the field; as JSON with --json', async () => {
    const details = [{ path: 'clips[0].bot_uid', message: 'is not a bot of this account' }];
    vi.stubGlobal(
      'fetch',
      fakeService({ 'POST /v1/bot': () => json(400, { error: { code: 'invalid_request', message: 'Invalid.', details } }) }).fetch,
    );
    expect(await main(['create', '--bot', 'nobody', '--text', 'Hi', '--webhook', 'https://h.example', '--json'], io())).toBe(4);
    expect(JSON.parse(err[0]!)).toEqual({ error: { code: 'invalid_request', message: 'Invalid.', details } });
  });

  it('create --wait --out: the inbox as webhook, progress per clip on stderr, the video saved', async () => {
    const svc = fakeService({
      'GET /v1/inbox': () => json(200, { inbox_url: 'http://svc/v1/inbox/acct_1', events: [] }),
      'POST /v1/bot': () => json(202, { video_id: 'vid_1', status: 'queued', create_video: true, clips: 1, created_at: '', url: '' }),
      'GET /v1/video/vid_1': [() => json(200, videoIn('rendering')), () => json(200, videoIn('completed'))],
      'GET /vid_1.mp4': () => new Response(new Uint8Array([0, 0, 0, 24]), { headers: { 'content-type': 'video/mp4' } }),
    });
    vi.stubGlobal('fetch', (r: Request) =>
      svc.fetch(r.url.startsWith('http://files/') ? new Request(r.url.replace('http://files/', 'http://svc/')) : r),
    );
    const file = join(dir, 'hello.mp4');
    const code = await main(['create', '--bot', 'bot_ava', '--text', 'Hello', '--aspect', '9:16', '--wait', '--out', file], io());
    expect(code).toBe(0);
    expect(JSON.parse(svc.seen.find((s) => s.method === 'POST')!.body)).toEqual({
      webhook: 'http://svc/v1/inbox/acct_1',
      clips: [{ bot_uid: 'bot_ava', text: 'Hello' }],
      aspect_ratio: '9:16',
    });
    expect(err.join('\n')).toMatch(/clip 0 \[##########----------\] rendering[\s\S]*clip 0 \[####################\] rendered/);
    expect(readFileSync(file)).toEqual(Buffer.from([0, 0, 0, 24]));
    expect(out.join('\n')).toMatch(/vid_1 completed[\s\S]*saved /);
  });

  it('6 when the awaited video fails', async () => {
    vi.stubGlobal(
      'fetch',
      fakeService({
        'POST /v1/bot': () => json(202, { video_id: 'vid_1', status: 'queued', create_video: true, clips: 1, created_at: '', url: '' }),
        'GET /v1/video/vid_1': () => json(200, videoIn('failed')),
      }).fetch,
    );
    expect(await main(['create', '--bot', 'bot_ava', '--text', 'Hi', '--webhook', 'https://h.example', '--wait'], io())).toBe(6);
    expect(err.join('\n')).toMatch(/vid_1 failed: clip 0: the background answered 404/);
  });

  it('7 when --wait runs past --timeout', async () => {
    vi.stubGlobal(
      'fetch',
      fakeService({
        'POST /v1/bot': () => json(202, { video_id: 'vid_1', status: 'queued', create_video: true, clips: 1, created_at: '', url: '' }),
        'GET /v1/video/vid_1': () => json(200, videoIn('rendering')),
      }).fetch,
    );
    expect(await main(['create', '--bot', 'bot_ava', '--text', 'Hi', '--webhook', 'https://h.example', '--wait', '--timeout', '0.2'], io())).toBe(7);
  });

  it('bot create --video says when the service offers no uploads (exit 9)', async () => {
    writeFileSync(join(dir, 'me.mp4'), Buffer.alloc(64));
    vi.stubGlobal('fetch', fakeService({}).fetch);
    expect(await main(['bot', 'create', 'me', '--name', 'Me', '--video', join(dir, 'me.mp4'), '--consent'], io())).toBe(9);
    expect(err.join('\n')).toMatch(/does not offer uploads/);
    expect(await main(['bot', 'create', 'me', '--name', 'Me', '--video', join(dir, 'me.mp4')], io())).toBe(2);
    expect(err.at(-1)).toMatch(/--video needs --consent/);
  });

  it('bot create --video uploads the recording, then names it with consent; exit 9 while bots do not take uploads', async () => {
    writeFileSync(join(dir, 'me.mp4'), Buffer.alloc(64, 7));
    const started = {
      upload_id: 'upl_1',
      kind: 'video',
      content_type: 'video/mp4',
      size: 64,
      upload_url: 'http://svc/put/upl_1',
      upload_method: 'PUT',
      upload_headers: { 'content-type': 'video/mp4' },
      upload_url_expires_at: 'later',
      expires_at: 'later',
    };
    const unknownField = {
      error: { code: 'invalid_request', message: 'Invalid.', details: [{ path: 'video_upload', message: 'is not a bot field' }] },
    };
    const svc = fakeService({
      'POST /v1/uploads': () => json(201, started),
      'PUT /put/upl_1': () => new Response(null, { status: 200 }),
      'PUT /v1/bot/me': [() => json(400, unknownField), () => json(202, { uid: 'me', status: 'preparing' })],
    });
    vi.stubGlobal('fetch', svc.fetch);
    const args = ['bot', 'create', 'me', '--name', 'Me', '--video', join(dir, 'me.mp4'), '--consent'];
    expect(await main(args, io())).toBe(9);
    expect(err.at(-1)).toMatch(/does not offer bots from an uploaded recording/);
    expect(JSON.parse(svc.seen[0]!.body)).toEqual({ content_type: 'video/mp4', size: 64 });
    expect(svc.seen[1]).toMatchObject({ method: 'PUT', url: 'http://svc/put/upl_1' });
    expect(svc.seen[1]!.headers.get('authorization')).toBeNull();
    expect(await main(args, io())).toBe(0);
    const form = svc.seen.at(-1)!.form!;
    expect([form.get('name'), form.get('video_upload'), form.get('consent')]).toEqual(['Me', 'upl_1', 'true']);
    expect(out.at(-1)).toBe('me preparing');
  });

  it("bot create --video --wait prints what the ready bot's recording lacks", async () => {
    writeFileSync(join(dir, 'me.mp4'), Buffer.alloc(64, 7));
    const warning = { code: 'no_rounded_lips', message: 'the lips are never rounded in the recording: say "who"' };
    const svc = fakeService({
      'POST /v1/uploads': () => json(201, { upload_id: 'upl_1', upload_url: 'http://svc/put/upl_1', upload_method: 'PUT', upload_headers: {} }),
      'PUT /put/upl_1': () => new Response(null, { status: 200 }),
      'PUT /v1/bot/me': () => json(202, { uid: 'me', status: 'preparing' }),
      'GET /v1/bot/me': () =>
        json(200, { uid: 'me', status: 'ready', footage: { recording_seconds: 12, background_removable: true, warnings: [warning] } }),
    });
    vi.stubGlobal('fetch', svc.fetch);
    expect(await main(['bot', 'create', 'me', '--name', 'Me', '--video', join(dir, 'me.mp4'), '--consent', '--wait'], io())).toBe(0);
    expect(out.at(-1)).toBe('me ready\n  warning no_rounded_lips: the lips are never rounded in the recording: say "who"');
  });
});

describe('webhook verify', () => {
  const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
  const payload = '{"type":"video.completed","timestamp":"2026-01-01T00:00:00Z","data":{"video_id":"vid_1"}}';

  it('0 and the event for a delivery the secret signed; 8 for one it did not', async () => {
    const body = join(dir, 'body.json');
    writeFileSync(body, payload);
    const h = signWebhook({ msgId: 'msg_1', timestamp: new Date(), payload, secrets: [secret] }) as unknown as Record<string, string>;
    const args = [body, '--id', h['webhook-id']!, '--timestamp', h['webhook-timestamp']!, '--signature', h['webhook-signature']!, '--secret', secret];
    expect(await main(['webhook', 'verify', ...args], io())).toBe(0);
    expect(out[0]).toBe('signature valid: video.completed');
    writeFileSync(body, payload.replace('vid_1', 'vid_2'));
    expect(await main(['webhook', 'verify', ...args, '--json'], io())).toBe(8);
    expect(JSON.parse(err[0]!).error.code).toBe('invalid_signature');
  });
});
