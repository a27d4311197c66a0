/**
 * Bots of an account: presenters a caller makes from a photo or from drawn images (PUT /v1/bot/{uid}). The
 * record, its rules, and the use cases that create, replace, delete and resolve them. Preparation (the look) is
 * an asynchronous job (functions/prepare); this module only knows what it needs and where the files go.
 */
import { z } from 'zod';
import { type Bot, BUILT_IN_BOTS } from './bot.ts';
import { BOT_UID_PATTERN, BOT_UID_RULE, type BotPosition } from './choices.ts';
import { httpUrlSchema, positionSchema } from './clip.ts';
import { normaliseWebhook } from './create-request.ts';
import { Conflict, type FieldProblem, Forbidden, InvalidRequest, NotFound, TooManyBotsInProgress } from './errors.ts';
import { limits } from './limits.ts';
import { CALLER_RESENDS_AFTER_SECONDS } from './lost-events.ts';
import type { DeliverBotMessage, PrepareBotMessage } from './messages.ts';
import type { AccountBotStore, MessageQueue, ObjectStore } from './ports.ts';
import type { DeliveryAttempt, DeliveryState } from './video.ts';
import { botVoiceOf, findVoice, type VoiceOptions } from './voices.ts';

export type AccountBotStatus = 'preparing' | 'ready' | 'failed';

/** The drawn images a caller may send; the first two are required. */
export const DRAWN_PARTS = ['mouth_closed', 'mouth_open', 'mouth_half', 'eyes_closed'] as const;
export type DrawnPart = (typeof DRAWN_PARTS)[number];

/** What the bot is prepared from. Uploads wait under uploads/ until the job has used them. */
export type BotImageSource =
  | { kind: 'photo'; uploadKey: string }
  | { kind: 'photo_url'; url: string }
  | { kind: 'drawn'; uploadKeys: Partial<Record<DrawnPart, string>> };

/** A prepared look in the bucket: `looks/<tenant>/<uid>/<version>/` and the names of its files. */
export interface StoredLook {
  version: string;
  files: string[];
  /** The look's preview image (a file of `files`). */
  preview: string;
}

/**
 * A look the bot no longer draws, moved to `retired-looks/<tenant>/<uid>/<version>/` when a replacement settled.
 * Clips of videos accepted before the replacement still render with it (their look is pinned on the clip); the
 * bucket's `ExpireRetiredLooks` rule removes it after RETIRED_LOOK_EXPIRY_DAYS, long after every such video ended
 * (a video ends by its deadline, an hour). Deleting the bot removes it at once.
 */
export interface RetiredLook extends StoredLook {
  /** When the PUT that replaced it was accepted (the look moves when that replacement settles, soon after). */
  replacedAt: string;
}

/**
 * What a clip naming a bot of the account keeps of it when its video is accepted: the look and the voice it
 * renders with, whatever happens to the bot afterwards (a replacement does not change a video already accepted).
 */
export interface PinnedBot {
  voice: string;
  look: StoredLook;
}

/**
 * The delivery of a settled bot's event (bot.ready or bot.failed) to its webhook, as a video's: its attempts, and
 * the queue message whose chain of retries carries it. Set when the bot settles, if it has a webhook.
 */
export interface BotDelivery {
  eventId: string;
  state: DeliveryState;
  attempts: DeliveryAttempt[];
  chainId?: string;
}

export interface BotFailure {
  code: string;
  message: string;
}

export interface AccountBot {
  tenantId: string;
  uid: string;
  /** The key that made it: its webhook secrets sign the bot's events. */
  keyId: string;
  name: string;
  description: string;
  /** A voice id of the catalog (#domain/voices), e.g. `espeak:es`. */
  voice: string;
  defaultPosition: BotPosition;
  webhookUrl?: string;
  status: AccountBotStatus;
  /** Changes on every PUT: the preparation it names is the only one that may settle the bot. */
  version: string;
  source: BotImageSource;
  /**
   * The look being drawn: the current version's once ready. While a replacement is prepared it still names
   * the previous version's files, so that the job can retire them when the new one settles.
   */
  look?: StoredLook;
  /** Looks of earlier versions still in the bucket (under retired-looks/), newest last. */
  retiredLooks?: RetiredLook[];
  error?: BotFailure;
  /** Its event's delivery, once settled with a webhook (a PUT starts a record without it). */
  delivery?: BotDelivery;
  createdAt: string;
  updatedAt: string;
}

/** A bot a caller may name in a clip: a built-in one, or one of the caller's own. */
export interface ResolvedBot {
  bot: Bot;
  /** Set for a bot of the account. */
  own?: AccountBot;
}

/** Built-in bots are named `bot_…`; an account's bot may not be, so a future built-in can never collide with one. */
const BUILT_IN_PREFIX = 'bot_';
/** The voice of a bot that names none. */
export const DEFAULT_BOT_VOICE = 'espeak:en-us+f3';
const DEFAULT_BOT_POSITION: BotPosition = 'bottom-right';

export const uploadKey = (tenantId: string, uid: string, version: string, part: string) => `uploads/${tenantId}/${uid}/${version}/${part}`;
export const lookPrefix = (tenantId: string, uid: string, version: string) => `looks/${tenantId}/${uid}/${version}`;
export const lookFileKey = (tenantId: string, uid: string, version: string, file: string) => `${lookPrefix(tenantId, uid, version)}/${file}`;
/** Where a replaced look's files go (the bucket's lifecycle rule expires them). */
export const retiredLookFileKey = (tenantId: string, uid: string, version: string, file: string) =>
  `retired-${lookFileKey(tenantId, uid, version, file)}`;
/** Days after which the bucket's lifecycle rule (infra/stack.ts) deletes retired looks: far beyond a video's deadline. */
export const RETIRED_LOOK_EXPIRY_DAYS = 1;
/**
 * Retired looks listed on a bot, newest kept: a listed look is removed by DELETE wherever it is. One dropped from the
 * list after this many replacements has long expired under retired-looks/ (or, if the sweeper failed its replacement,
 * stays under looks/: see failBot).
 */
const RETIRED_LOOKS_LISTED = 50;

const isBuiltInUid = (uid: string) => BUILT_IN_BOTS.some((bot) => bot.uid === uid);

/**
 * An account bot as the renderer sees a bot. The one place an account bot's voice id becomes the Bot's voice
 * (botVoiceOf: a Polly voice gets an espeak-ng stand-in of its language and gender). The look is
 * named by its prefix in the bucket, version included, so a render of a replaced bot is never reused (the
 * clip's content hash covers bot.look).
 */
export function toBot(own: AccountBot, pinned?: PinnedBot): Bot {
  // Any voice of the catalog (a Polly one too: where Polly is off it is spoken by its espeak-ng stand-in).
  const voice = findVoice(pinned?.voice ?? own.voice, { polly: true }) ?? findVoice(DEFAULT_BOT_VOICE, { polly: false })!;
  return {
    uid: own.uid,
    name: own.name,
    description: own.description,
    voice: botVoiceOf(voice),
    defaultPosition: own.defaultPosition,
    look: lookPrefix(own.tenantId, own.uid, pinned?.look.version ?? own.look?.version ?? own.version),
  };
}

/**
 * Whether a look pinned on a clip is still one of this bot's: its current look or one it replaced. A bot deleted and
 * made again under the same uid is another bot: a clip pinned to the deleted one's look must not draw it.
 */
export const ownsLook = (own: AccountBot, pinned: PinnedBot): boolean =>
  own.look?.version === pinned.look.version || (own.retiredLooks ?? []).some((look) => look.version === pinned.look.version);

/** A ready bot's look and voice, to pin on a clip when its video is accepted. */
export function pinOf(own: AccountBot): PinnedBot | undefined {
  return own.status === 'ready' && own.look ? { voice: own.voice, look: own.look } : undefined;
}

/** The bot a clip of this account names: built-in first, then the account's own; undefined if neither. */
export async function resolveBot(
  tenantId: string,
  uid: string,
  deps: { bots: { get(uid: string): Promise<Bot | undefined> }; accountBots: Pick<AccountBotStore, 'get'> },
): Promise<ResolvedBot | undefined> {
  const builtIn = await deps.bots.get(uid);
  if (builtIn) return { bot: builtIn };
  if (!BOT_UID_PATTERN.test(uid)) return undefined;
  const own = await deps.accountBots.get(tenantId, uid);
  return own ? { bot: toBot(own), own } : undefined;
}

// --- PUT /v1/bot/{uid} ------------------------------------------------------------------------------------------

/** An image part of the request, as received. */
export interface ImagePart {
  bytes: Buffer;
  contentType?: string;
}

export type BotImages =
  | { kind: 'photo'; image: ImagePart }
  | { kind: 'photo_url'; url: string }
  | { kind: 'drawn'; parts: Partial<Record<DrawnPart, ImagePart>> };

export interface PutBotCommand {
  uid: string;
  name: string;
  description: string;
  voice: string;
  defaultPosition: BotPosition;
  webhookUrl?: string;
  images: BotImages;
}

const textFields = z.object({
  name: z.string({ error: 'is required' }).trim().min(1, 'is required').max(limits.maxBotNameChars),
  description: z.string().trim().max(limits.maxBotDescriptionChars).default(''),
  voice: z.string().trim().min(1).max(100).default(DEFAULT_BOT_VOICE),
  default_position: positionSchema.optional(),
  webhook: z.string().trim().max(limits.maxUrlChars).optional(),
  image_url: z.string().trim().optional(),
});
const KNOWN_FIELDS = new Set(['name', 'description', 'voice', 'default_position', 'webhook', 'image_url', 'image', ...DRAWN_PARTS]);

/** The image formats a photo may be, by their first bytes (the preparation decodes and checks them properly). */
function sniffImage(bytes: Buffer): 'jpeg' | 'png' | 'webp' | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

/**
 * The uid check: 400 for a malformed one or one in the built-in namespace, 403 for a built-in bot's own uid
 * (it exists and is not the caller's to change).
 */
function checkOwnUid(uid: string): void {
  if (isBuiltInUid(uid)) throw new Forbidden(`"${uid}" is a built-in bot; it cannot be changed or deleted.`);
  if (!BOT_UID_PATTERN.test(uid)) throw new InvalidRequest([{ path: 'uid', message: BOT_UID_RULE }]);
  if (uid.startsWith(BUILT_IN_PREFIX))
    throw new InvalidRequest([{ path: 'uid', message: `must not start with "${BUILT_IN_PREFIX}", which names built-in bots` }]);
}

/**
 * Validates a PUT: the text fields (from JSON or the form) and the image parts (multipart files). Exactly one
 * image source: `image`, `image_url`, or the drawn parts (`mouth_closed` and `mouth_open`, optionally
 * `mouth_half` and `eyes_closed`).
 */
export function parsePutBot(uid: string, fields: Record<string, unknown>, files: Record<string, ImagePart>, voices: VoiceOptions): PutBotCommand {
  checkOwnUid(uid);
  const problems: FieldProblem[] = [];
  for (const name of [...Object.keys(fields), ...Object.keys(files)])
    if (!KNOWN_FIELDS.has(name)) problems.push({ path: name, message: 'is not a bot field' });
  for (const name of Object.keys(files))
    if (!['image', ...DRAWN_PARTS].includes(name)) problems.push({ path: name, message: 'is not an image field' });
  for (const name of ['image', ...DRAWN_PARTS])
    if (name in fields) problems.push({ path: name, message: 'must be sent as a file (multipart/form-data)' });
  const parsed = textFields.safeParse(fields);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push({ path: issue.path.join('.') || '(body)', message: issue.message });
    throw new InvalidRequest(problems);
  }
  const text = parsed.data;
  if (!findVoice(text.voice, voices)) problems.push({ path: 'voice', message: `unknown voice "${text.voice}"; list the voices with GET /v1/voices` });
  let webhookUrl: string | undefined;
  if (text.webhook) {
    const result = httpUrlSchema.safeParse(normaliseWebhook(text.webhook));
    if (result.success) webhookUrl = result.data;
    else problems.push({ path: 'webhook', message: result.error.issues[0]?.message ?? 'is not a valid URL' });
  }

  const drawnGiven = DRAWN_PARTS.filter((part) => files[part]);
  const sources = [
    files.image ? 'image' : undefined,
    text.image_url ? 'image_url' : undefined,
    drawnGiven.length ? 'mouth_closed/mouth_open' : undefined,
  ].filter(Boolean);
  let images: BotImages | undefined;
  if (sources.length === 0)
    problems.push({ path: 'image', message: 'is required: send image (a photo), image_url, or mouth_closed and mouth_open (drawn PNGs)' });
  else if (sources.length > 1) problems.push({ path: 'image', message: `give one image source, not ${sources.join(' and ')}` });
  else if (files.image) {
    if (!sniffImage(files.image.bytes)) problems.push({ path: 'image', message: 'must be a JPEG, PNG or WebP image' });
    images = { kind: 'photo', image: files.image };
  } else if (text.image_url) {
    const result = httpUrlSchema.safeParse(text.image_url);
    if (result.success) images = { kind: 'photo_url', url: result.data };
    else problems.push({ path: 'image_url', message: result.error.issues[0]?.message ?? 'is not a valid URL' });
  } else {
    for (const part of ['mouth_closed', 'mouth_open'] as const)
      if (!files[part]) problems.push({ path: part, message: 'is required for a drawn bot' });
    for (const part of drawnGiven) if (sniffImage(files[part]!.bytes) !== 'png') problems.push({ path: part, message: 'must be a PNG (with alpha)' });
    images = { kind: 'drawn', parts: Object.fromEntries(drawnGiven.map((part) => [part, files[part]!])) };
  }
  for (const [name, part] of Object.entries(files))
    if (part.bytes.length > limits.maxBotImageBytes)
      problems.push({ path: name, message: `is larger than ${limits.maxBotImageBytes / 1024 / 1024} MB` });
  if (problems.length || !images) throw new InvalidRequest(problems);
  return {
    uid,
    name: text.name,
    description: text.description,
    voice: text.voice,
    defaultPosition: text.default_position ?? DEFAULT_BOT_POSITION,
    webhookUrl,
    images,
  };
}

export interface AccountBotDeps {
  accountBots: AccountBotStore;
  objects: Pick<ObjectStore, 'putBytes' | 'delete'>;
  prepareQueue: MessageQueue<PrepareBotMessage>;
  now: () => Date;
  newVersion: () => string;
}

const uploadKeysOf = (source: BotImageSource): string[] =>
  source.kind === 'photo' ? [source.uploadKey] : source.kind === 'drawn' ? Object.values(source.uploadKeys).filter((k): k is string => !!k) : [];

/** Every object a bot record owns: its uploads and its look's files. */
const objectKeysOf = (bot: AccountBot): string[] => [
  ...uploadKeysOf(bot.source),
  // Each look under looks/ or retired-looks/ (or half in each, while it moves): the current one, and those it replaced.
  ...lookKeysOf(bot, bot.look ? [bot.look, ...(bot.retiredLooks ?? [])] : (bot.retiredLooks ?? [])),
];

/** Both places each file of these looks of the bot may be: looks/ and retired-looks/. */
const lookKeysOf = (bot: Pick<AccountBot, 'tenantId' | 'uid'>, looks: StoredLook[]): string[] =>
  looks.flatMap((look) =>
    look.files.flatMap((file) => [
      lookFileKey(bot.tenantId, bot.uid, look.version, file),
      retiredLookFileKey(bot.tenantId, bot.uid, look.version, file),
    ]),
  );

/**
 * After a settle found the record gone (a DELETE came between reading it and writing it): what the DELETE may have
 * missed, because the settle moved it meanwhile, goes now. A record replaced by a PUT still lists the look.
 */
export async function removeLookIfBotDeleted(deps: Pick<BotOutcomeDeps, 'accountBots' | 'objects'>, bot: AccountBot): Promise<void> {
  if (!bot.look || (await deps.accountBots.get(bot.tenantId, bot.uid))) return;
  await Promise.all(lookKeysOf(bot, [bot.look]).map((key) => deps.objects.delete(key)));
}

/**
 * The looks a replacement of `previous` leaves in the bucket: the ones it had replaced, and its current one (which the
 * replacement's preparation retires when it settles). Listed on the new record so that DELETE finds them, and so that
 * a clip pinned to one of them knows it is still this bot's. Only the newest RETIRED_LOOKS_LISTED are kept listed.
 */
function retiredLooksAfter(previous: AccountBot | undefined, now: string): RetiredLook[] {
  if (!previous) return [];
  const listed = [...(previous.retiredLooks ?? [])];
  if (previous.look && !listed.some((look) => look.version === previous.look!.version)) listed.push({ ...previous.look, replacedAt: now });
  return listed.slice(-RETIRED_LOOKS_LISTED);
}

/** A PUT or DELETE that lost a race with another request on the same bot: nothing of it was kept. */
const changedMeanwhile = (uid: string) =>
  new Conflict(`bot "${uid}" was changed by another request at the same time; read it (GET /v1/bot/${uid}) and send yours again`);

/**
 * Refuses a preparation while the account has its limit of other bots preparing (replacing a bot that is itself
 * preparing takes its place). Checked before anything is stored: a refused PUT leaves nothing.
 */
async function ensureRoomForAnotherPreparation(tenantId: string, uid: string, deps: Pick<AccountBotDeps, 'accountBots'>) {
  const preparing = (await deps.accountBots.list(tenantId)).filter((bot) => bot.status === 'preparing' && bot.uid !== uid).length;
  if (preparing >= limits.maxBotsPreparing) throw new TooManyBotsInProgress(limits.maxBotsPreparing, limits.botsPreparingRetryAfterSeconds);
}

/**
 * Creates or replaces a bot of the caller's account: stores the images under uploads/, records the bot as
 * `preparing` with a new version, and queues its preparation. A replaced bot keeps its previous look's files
 * until the new version settles (the job retires them; the record lists them among its retired looks from now on).
 * The record is written only if it is still the one read
 * (none, or the same version): of two PUTs at once one wins and the other is a Conflict (409) that keeps nothing,
 * so no record names a look another version already removed. If the job cannot be queued, the previous record is
 * put back (or the new one removed, unless another request replaced it meanwhile) and the uploads deleted: nothing
 * is left waiting for a job that never comes.
 */
export async function putAccountBot(command: PutBotCommand, caller: { tenantId: string; keyId: string }, deps: AccountBotDeps): Promise<AccountBot> {
  const { tenantId } = caller;
  const previous = await deps.accountBots.get(tenantId, command.uid);
  await ensureRoomForAnotherPreparation(tenantId, command.uid, deps);
  const version = deps.newVersion();
  const now = deps.now().toISOString();
  const uploads: string[] = [];
  const upload = async (part: string, image: ImagePart) => {
    const key = uploadKey(tenantId, command.uid, version, part);
    // Never the caller's Content-Type: an upload served as text/html from the bucket would be a page of theirs.
    await deps.objects.putBytes(key, image.bytes, { contentType: 'application/octet-stream' });
    uploads.push(key);
    return key;
  };
  const removeOwnUploads = () => Promise.allSettled(uploads.map((key) => deps.objects.delete(key)));
  let source: BotImageSource;
  try {
    const { images } = command;
    if (images.kind === 'photo') source = { kind: 'photo', uploadKey: await upload('image', images.image) };
    else if (images.kind === 'photo_url') source = { kind: 'photo_url', url: images.url };
    else {
      const uploadKeys: Partial<Record<DrawnPart, string>> = {};
      for (const [part, image] of Object.entries(images.parts) as [DrawnPart, ImagePart][]) uploadKeys[part] = await upload(part, image);
      source = { kind: 'drawn', uploadKeys };
    }
  } catch (error) {
    await removeOwnUploads();
    throw error;
  }
  const retiredLooks = retiredLooksAfter(previous, now);
  const bot: AccountBot = {
    tenantId,
    uid: command.uid,
    keyId: caller.keyId,
    name: command.name,
    description: command.description,
    voice: command.voice,
    defaultPosition: command.defaultPosition,
    ...(command.webhookUrl ? { webhookUrl: command.webhookUrl } : {}),
    status: 'preparing',
    version,
    source,
    ...(previous?.look ? { look: previous.look } : {}),
    ...(retiredLooks.length ? { retiredLooks } : {}),
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
  };
  try {
    if (!(await deps.accountBots.put(bot, previous))) throw changedMeanwhile(command.uid);
  } catch (error) {
    await removeOwnUploads();
    throw error;
  }
  try {
    await deps.prepareQueue.send({ kind: 'prepare-bot', tenantId, uid: bot.uid, version });
  } catch (error) {
    await (previous ? deps.accountBots.put(previous, bot) : deps.accountBots.delete(tenantId, bot.uid, bot));
    await removeOwnUploads();
    throw error;
  }
  // The previous version's uploads, if its preparation never ran: that job will find itself superseded.
  if (previous) await Promise.allSettled(uploadKeysOf(previous.source).map((key) => deps.objects.delete(key)));
  return bot;
}

/**
 * DELETE /v1/bot/{uid}: the record and every file it owns. A built-in bot is 403, anything not the caller's 404.
 * The record is deleted only if it is still the one read; if a PUT replaced it meanwhile, a Conflict (409).
 */
export async function deleteAccountBot(tenantId: string, uid: string, deps: Pick<AccountBotDeps, 'accountBots' | 'objects'>): Promise<AccountBot> {
  if (isBuiltInUid(uid)) throw new Forbidden(`"${uid}" is a built-in bot; it cannot be deleted.`);
  const bot = BOT_UID_PATTERN.test(uid) ? await deps.accountBots.get(tenantId, uid) : undefined;
  if (!bot) throw new NotFound(`No bot "${uid}".`);
  if (!(await deps.accountBots.delete(tenantId, uid, bot))) throw changedMeanwhile(uid);
  // A preparation under way finds the record gone and removes what it wrote (functions/prepare/prepare-job.ts).
  await Promise.all(objectKeysOf(bot).map((key) => deps.objects.delete(key)));
  return bot;
}

/**
 * POST /v1/bot/{uid}/redeliver: queues the bot's event (bot.ready or bot.failed) again, as a new chain of attempts.
 * Only a settled bot of the account with a webhook has one; one chain at a time, as for videos. An event never
 * attempted CALLER_RESENDS_AFTER_SECONDS after the bot settled (lost between the settle and the queue) may be sent again too.
 */
export async function redeliverBotEvent(
  deps: { accountBots: Pick<AccountBotStore, 'get'>; notifyQueue: MessageQueue<DeliverBotMessage>; now: () => Date },
  tenantId: string,
  uid: string,
): Promise<{ bot: AccountBot; eventId: string }> {
  if (isBuiltInUid(uid)) throw new Forbidden(`"${uid}" is a built-in bot; it sends no events.`);
  const bot = BOT_UID_PATTERN.test(uid) ? await deps.accountBots.get(tenantId, uid) : undefined;
  if (!bot) throw new NotFound(`No bot "${uid}".`);
  if (bot.status === 'preparing') throw new Conflict(`Bot "${uid}" is still preparing; its event is sent when it is ready or has failed.`);
  if (!bot.webhookUrl) throw new Conflict(`Bot "${uid}" has no webhook; give one with PUT /v1/bot/${uid} to be told when it is ready.`);
  // A bot settled before events were recorded has no record: its event as a fresh one.
  const delivery = bot.delivery ?? settledDelivery(bot, bot.status === 'ready' ? 'bot.ready' : 'bot.failed')!;
  const lost =
    delivery.state === 'pending' &&
    delivery.attempts.length === 0 &&
    deps.now().getTime() - Date.parse(bot.updatedAt) >= CALLER_RESENDS_AFTER_SECONDS * 1000;
  if (!lost && (delivery.state === 'pending' || delivery.state === 'delivering'))
    throw new Conflict(
      `The event of bot "${uid}" is still being delivered (${delivery.attempts.length} attempts so far); redeliver once it has been delivered or has failed.`,
    );
  await deps.notifyQueue.send({
    kind: 'deliver-bot',
    tenantId,
    uid,
    version: bot.version,
    eventId: delivery.eventId,
    attempt: delivery.attempts.length + 1,
    redelivery: true,
  });
  return { bot, eventId: delivery.eventId };
}

/** The event id of a bot's outcome: stable per version and outcome, so a receiver can drop duplicates. */
const botEventIdFor = (bot: Pick<AccountBot, 'tenantId' | 'uid' | 'version'>, type: 'bot.ready' | 'bot.failed') =>
  `evt_bot_${bot.tenantId}_${bot.uid}_${bot.version}_${type.replace(/^bot\./, '')}`;

// --- Outcomes of a preparation -----------------------------------------------------------------------------------

/** What settling a version of a bot touches: the prepare job (functions/prepare) and the sweeper use it. */
export interface BotOutcomeDeps {
  accountBots: Pick<AccountBotStore, 'get' | 'markFailed'>;
  objects: Pick<ObjectStore, 'head' | 'copy' | 'delete'>;
  notifyQueue: MessageQueue<DeliverBotMessage>;
  now: () => Date;
}

/** The failure of a preparation that did not end with the builder's verdict (a crash, a time-out, our fault). */
export const preparationFailed = (attempts: number): BotFailure => ({
  code: 'preparation_failed',
  message: `the bot could not be prepared${attempts > 1 ? ` after ${attempts} attempts` : ''}; send it again with PUT /v1/bot/{uid}`,
});

/** Every upload a version may have made (the PUT's parts); deleting one that is not there is a no-op. */
export async function removeUploads(deps: Pick<BotOutcomeDeps, 'objects'>, message: PrepareBotMessage): Promise<void> {
  await Promise.all(['image', ...DRAWN_PARTS].map((part) => deps.objects.delete(uploadKey(message.tenantId, message.uid, message.version, part))));
}

/**
 * Moves a look the bot no longer draws to retired-looks/, where clips pinned to it still find it until the
 * bucket's lifecycle rule expires it. Each file is copied before it is deleted, so a render reading the look
 * meanwhile finds every file in one place or the other; a retry after a crash skips what already moved.
 */
export async function retireLook(deps: Pick<BotOutcomeDeps, 'objects'>, bot: Pick<AccountBot, 'tenantId' | 'uid'>, look: StoredLook): Promise<void> {
  await Promise.all(
    look.files.map(async (file) => {
      const from = lookFileKey(bot.tenantId, bot.uid, look.version, file);
      if (!(await deps.objects.head(from))) return;
      await deps.objects.copy(from, retiredLookFileKey(bot.tenantId, bot.uid, look.version, file), { tags: {} });
      await deps.objects.delete(from);
    }),
  );
}

/** The record of a settling bot's event delivery: none without a webhook. */
export const settledDelivery = (bot: AccountBot, type: 'bot.ready' | 'bot.failed'): BotDelivery | undefined =>
  bot.webhookUrl ? { eventId: botEventIdFor(bot, type), state: 'pending', attempts: [] } : undefined;

/** Queues the bot's bot.ready / bot.failed event, if it has a webhook (the notifier delivers an event id once). */
export async function announceBot(deps: Pick<BotOutcomeDeps, 'notifyQueue'>, bot: AccountBot, type: 'bot.ready' | 'bot.failed'): Promise<void> {
  if (!bot.webhookUrl) return;
  await deps.notifyQueue.send({
    kind: 'deliver-bot',
    tenantId: bot.tenantId,
    uid: bot.uid,
    version: bot.version,
    eventId: botEventIdFor(bot, type),
    attempt: 1,
  });
}

/**
 * Fails the message's version once, only while it is the bot's current version and still preparing: the record
 * says why, its uploads go, its webhook is told. Its previous look (listed among the retired looks since the PUT)
 * stays where clips pinned to it find it: the prepare job retires it (moves it to retired-looks/, before the record
 * stops naming it, so an attempt that dies halfway still knows what to move); the sweeper, which may only delete
 * uploads, leaves it under looks/, where it stays until the bot is deleted. A version that was replaced, deleted or has
 * settled only loses its uploads (never needed again). The prepare job's failure policy and the sweeper (a message
 * dead-lettered after crashing on every attempt) both end a preparation here. Returns whether this call failed the bot.
 */
export async function failBot(
  deps: BotOutcomeDeps,
  message: PrepareBotMessage,
  failure: BotFailure,
  previousLook: 'retire' | 'leave' = 'retire',
): Promise<boolean> {
  const bot = await deps.accountBots.get(message.tenantId, message.uid);
  if (!bot || bot.version !== message.version || bot.status !== 'preparing') {
    await removeUploads(deps, message);
    return false;
  }
  if (bot.look && previousLook === 'retire') await retireLook(deps, bot, bot.look);
  const failedAt = deps.now().toISOString();
  if (!(await deps.accountBots.markFailed(message.tenantId, message.uid, message.version, failure, failedAt, settledDelivery(bot, 'bot.failed')))) {
    if (previousLook === 'retire') await removeLookIfBotDeleted(deps, bot);
    return false;
  }
  await removeUploads(deps, message);
  await announceBot(deps, { ...bot, status: 'failed', error: failure }, 'bot.failed');
  return true;
}
