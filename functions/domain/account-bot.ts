/**
 * A bot of an account: a presenter a caller makes from a photo or from drawn images (PUT /v1/bot/{uid}). The
 * record and its states, where its files go in the bucket, and how it becomes a Bot the renderer draws. Parsing
 * the PUT is account-bot-request.ts; the use cases are account-bots.ts; settling a preparation is
 * account-bot-outcomes.ts. Preparation (the look) is an asynchronous job (functions/prepare).
 */
import { type Bot, BUILT_IN_BOTS } from './bot.ts';
import { lookFileKey, lookPrefix, retiredLookFileKey } from './bucket-layout.ts';
import type { BotPosition } from './choices.ts';
import type { FootageWarning } from './footage-warnings.ts';
import type { MouthShape } from './look.ts';
import type { DeliveryAttempt, DeliveryState } from './video.ts';
import { botVoiceOf, findVoice } from './voices.ts';

export type AccountBotStatus = 'preparing' | 'ready' | 'failed';

/**
 * The drawn images a caller may send; the first two are required. `mouth_round`, `mouth_wide` and `mouth_fv` are
 * the mouth shapes (visemes) of DRAWN_SHAPE_PARTS.
 */
export const DRAWN_PARTS = ['mouth_closed', 'mouth_open', 'mouth_half', 'eyes_closed', 'mouth_round', 'mouth_wide', 'mouth_fv'] as const;
export type DrawnPart = (typeof DRAWN_PARTS)[number];

/** The drawing of each mouth shape (its most open frame; the preparation derives the others from it). */
export const DRAWN_SHAPE_PARTS = { round: 'mouth_round', wide: 'mouth_wide', fv: 'mouth_fv' } as const satisfies Record<MouthShape, DrawnPart>;

/** What the bot is prepared from. Uploads wait under uploads/ until the job has used them. */
export type BotImageSource =
  | { kind: 'photo'; uploadKey: string }
  | { kind: 'photo_url'; url: string }
  | { kind: 'drawn'; uploadKeys: Partial<Record<DrawnPart, string>> }
  | { kind: 'video'; uploadKey: string }
  | { kind: 'video_url'; url: string };

/** What a bot is made from, as listings show it (`kind`): a built-in drawing, a photo, drawings, or a recording. */
export type BotKind = 'built_in' | 'photo' | 'drawn' | 'video';
export const kindOfSource = (source: BotImageSource): BotKind =>
  source.kind === 'drawn' ? 'drawn' : source.kind === 'video' || source.kind === 'video_url' ? 'video' : 'photo';

/** A video bot's consent: the caller stated that the person filmed agreed to be cloned, with this key, then. */
export interface BotConsent {
  givenAt: string;
  keyId: string;
}

/** A prepared look in the bucket: `looks/<tenant>/<uid>/<version>/` and the names of its files. */
export interface StoredLook {
  version: string;
  files: string[];
  /** The look's preview image (a file of `files`). */
  preview: string;
  /** A video bot's: how long its recording plays, seconds (what a clip with `footage: "as_recorded"` may last). */
  recordingSeconds?: number;
  /** A video bot's: its loops have the person's matte, so a clip may remove its background. */
  cutout?: true;
  /** A video bot's: what its recording lacks, and so what its clips show a stand-in for (absent: a look made before warnings). */
  warnings?: FootageWarning[];
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
  /** Set for a video bot (required to make one). */
  consent?: BotConsent;
  /** Made with a test key: the bot of a test account (domain/test-mode.ts). */
  test?: true;
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

/**
 * The voice of a bot that names none: the offline English voice an offline recogniser understands best (word error
 * rate 0.33 against 0.68 for `en-us+f3`; docs/bots-and-voices.md, `npm run voices:wer`). A bot has no language of its
 * own; a caller wanting another language names one of its voices (`GET /v1/voices?language=es`).
 */
export const DEFAULT_BOT_VOICE = 'espeak:en-us+f5';

export const isBuiltInUid = (uid: string) => BUILT_IN_BOTS.some((bot) => bot.uid === uid);

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

/** Both places each file of these looks of the bot may be: looks/ and retired-looks/. */
export const lookKeysOf = (bot: Pick<AccountBot, 'tenantId' | 'uid'>, looks: StoredLook[]): string[] =>
  looks.flatMap((look) =>
    look.files.flatMap((file) => [
      lookFileKey(bot.tenantId, bot.uid, look.version, file),
      retiredLookFileKey(bot.tenantId, bot.uid, look.version, file),
    ]),
  );
