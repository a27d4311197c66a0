import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { unwrap } from '../client.ts';
import { toForm } from '../forms.ts';
import type { TemplateRequest } from '../types.ts';
import type { Vidbot } from '../vidbot.ts';
import { pollUntil } from '../wait.ts';
import { verifyWebhook } from '../webhooks.ts';
import { type Io, NotOfferedError, print, UsageError } from './output.ts';
import { timeoutMs } from './videos.ts';

async function readInput(file: string): Promise<Buffer<ArrayBuffer>> {
  try {
    return file === '-' ? await readStdin() : await readFile(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

async function readStdin(): Promise<Buffer<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function botsCommand(vidbot: Vidbot, io: Io) {
  const { bots } = (await vidbot.listBots()) as { bots: { uid: string; name: string; status?: string; voice?: string }[] };
  print(io, { bots }, () => bots.map((b) => `${b.uid.padEnd(24)} ${b.name}${b.status && b.status !== 'ready' ? ` (${b.status})` : ''}`).join('\n'));
}

export async function voicesCommand(vidbot: Vidbot, io: Io, language: string | undefined) {
  const voices = await vidbot.listVoices(language);
  print(io, { voices }, () => voices.map((v) => `${v.id.padEnd(28)} ${v.language.padEnd(8)} ${v.language_name} ${v.gender ?? ''}`).join('\n'));
}

const MEDIA_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
};

async function fileOf(path: string): Promise<File> {
  const type = MEDIA_TYPES[extname(path).toLowerCase()];
  if (!type) throw new UsageError(`${path}: the file's extension does not say its type (${Object.keys(MEDIA_TYPES).join(', ')})`);
  return new File([await readInput(path)], basename(path), { type });
}

export interface BotFlags {
  name?: string;
  photo?: string;
  video?: string;
  consent?: boolean;
  voice?: string;
  webhook?: string;
  wait?: boolean;
  timeout?: string;
}

/** A bot of the account from a photo (sent in the form) or a recording (uploaded first, with the person's consent). */
export async function botCreateCommand(vidbot: Vidbot, io: Io, uid: string | undefined, flags: BotFlags) {
  if (!uid || !flags.name) throw new UsageError('bot create needs a uid and --name: vidbot bot create my_host --name Host --photo me.jpg');
  if (!flags.photo === !flags.video) throw new UsageError('bot create needs exactly one of --photo FILE or --video FILE');
  if (flags.video && !flags.consent) throw new UsageError('--video needs --consent: you confirm the person filmed agreed to be a presenter');
  const fields: Record<string, unknown> = { name: flags.name, voice: flags.voice, webhook: flags.webhook };
  if (flags.photo) fields.image = await fileOf(flags.photo);
  else {
    const upload = await vidbot.upload(await fileOf(flags.video!)).catch(notOffered('uploads (POST /v1/uploads)'));
    Object.assign(fields, { video_upload: upload.upload_id, consent: true });
  }
  const put = () => vidbot.api.PUT('/v1/bot/{uid}', { params: { path: { uid } }, body: { name: flags.name! }, bodySerializer: () => toForm(fields) });
  let bot = (await put().then(unwrap).catch(videoBotsNotOffered)) as {
    uid: string;
    status: string;
    error?: { code: string; message: string };
    footage?: { warnings?: { code: string; message: string }[] };
  };
  if (flags.wait) {
    const look = async () => unwrap(await vidbot.api.GET('/v1/bot/{uid}', { params: { path: { uid } } })) as typeof bot;
    bot = await pollUntil(
      uid,
      look,
      (b) => b.status !== 'preparing',
      (b) => b.status,
      { timeoutMs: timeoutMs(flags.timeout) },
    );
  }
  // A ready video bot names what its recording lacks (the bot works; a new recording fixes them).
  const warnings = (bot.footage?.warnings ?? []).map((w) => `\n  warning ${w.code}: ${w.message}`).join('');
  print(io, bot, () => `${bot.uid} ${bot.status}${bot.error ? `: ${bot.error.code} ${bot.error.message}` : ''}${warnings}`);
  return bot.status === 'failed' ? 'failed' : 'ok';
}

/** A service whose bots do not take `video_upload` yet names it as an unknown field: say what is missing. */
const videoBotsNotOffered = (error: unknown) => {
  const details = (error as { details?: { path: string; message: string }[] }).details ?? [];
  if (details.some((d) => d.path === 'video_upload' && /not a bot field/.test(d.message)))
    throw new NotOfferedError('this service does not offer bots from an uploaded recording (video_upload) yet');
  throw error;
};

/** A 404 from a route the service does not have becomes "not offered", not a missing resource. */
const notOffered = (what: string) => (error: unknown) => {
  if ((error as { status?: number }).status === 404) throw new NotOfferedError(`this service does not offer ${what} yet`);
  throw error;
};

/** `template put FILE`: the template's uid is --uid, else the file's name without its extension. */
export async function templatePutCommand(vidbot: Vidbot, io: Io, file: string | undefined, uid: string | undefined) {
  if (!file) throw new UsageError('template put needs a JSON file: vidbot template put welcome.json');
  let template: TemplateRequest;
  try {
    template = JSON.parse((await readInput(file)).toString('utf8'));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${file} is not JSON: ${(error as Error).message}`);
  }
  const name = uid ?? basename(file, extname(file));
  const saved = (await vidbot.putTemplate(name, template)) as { uid: string; variables?: string[] };
  print(io, saved, () => `template ${saved.uid} saved${saved.variables?.length ? `; variables: ${saved.variables.join(', ')}` : ''}`);
}

export interface BatchFlags {
  webhook?: string;
  wait?: boolean;
  'dry-run'?: boolean;
  timeout?: string;
}

export async function batchSendCommand(vidbot: Vidbot, io: Io, template: string | undefined, csvFile: string | undefined, flags: BatchFlags) {
  if (!template || !csvFile) throw new UsageError('batch send needs a template and a CSV file: vidbot batch send welcome rows.csv');
  const csv = new File([await readInput(csvFile)], basename(csvFile), { type: 'text/csv' });
  const webhook = flags.webhook ?? ((await vidbot.inbox()) as { inbox_url?: string }).inbox_url;
  if (!webhook) throw new UsageError('this service has no inbox: pass --webhook URL');
  if (flags['dry-run']) {
    const checked = await vidbot.checkBatch(template, { webhook, rows: csv });
    return print(io, checked, () => `all ${checked.rows} rows are valid; nothing was made`);
  }
  const created = await vidbot.sendBatch(template, { webhook, rows: csv });
  if (!flags.wait) return print(io, created, () => `${created.batch_id} ${created.status}: ${created.rows} rows, ${created.url}`);
  const batch = await vidbot.waitForBatch(created.batch_id, {
    timeoutMs: timeoutMs(flags.timeout),
    onProgress: (b) =>
      io.json ||
      io.err(
        `${b.batch_id} ${b.status}: ${b.counts.completed} completed, ${b.counts.failed} failed, ${b.counts.pending + b.counts.in_progress} to go`,
      ),
  });
  print(
    io,
    batch,
    () =>
      `${batch.batch_id} ${batch.status}: ${batch.counts.completed} completed, ${batch.counts.failed} failed, ${batch.counts.cancelled} cancelled`,
  );
  return batch.counts.failed > 0 ? 'failed' : 'ok';
}

export async function inboxCommand(vidbot: Vidbot, io: Io) {
  const inbox = (await vidbot.inbox()) as { inbox_url: string; events: { type: string; received_at?: string; data?: { video_id?: string } }[] };
  print(io, inbox, () =>
    [`inbox ${inbox.inbox_url}`, ...inbox.events.map((e) => `${e.received_at ?? ''} ${e.type} ${e.data?.video_id ?? ''}`.trim())].join('\n'),
  );
}

export interface VerifyFlags {
  secret?: string;
  id?: string;
  timestamp?: string;
  signature?: string;
}

/** Checks a delivery your own receiver got: its raw body (a file, or - for stdin) and its three headers. */
export async function webhookVerifyCommand(io: Io, bodyFile: string | undefined, flags: VerifyFlags) {
  const secret = flags.secret ?? process.env.VIDBOT_WEBHOOK_SECRET;
  if (!bodyFile || !secret || !flags.id || !flags.timestamp || !flags.signature)
    throw new UsageError('webhook verify needs BODY_FILE (or -), --id, --timestamp, --signature and --secret (or VIDBOT_WEBHOOK_SECRET)');
  const body = await readInput(bodyFile);
  const event = verifyWebhook(body, { 'webhook-id': flags.id, 'webhook-timestamp': flags.timestamp, 'webhook-signature': flags.signature }, secret);
  print(io, event, () => `signature valid: ${event.type}`);
}
