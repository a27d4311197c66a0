import type { BotPosition } from './clip.ts';

/** How a bot sounds. espeak-ng runs everywhere; Polly (neural, with viseme marks) is used on AWS when enabled. */
interface BotVoice {
  /** The engine this bot prefers. A bot that prefers Polly falls back to its espeak voice where Polly is off. */
  engine: 'espeak' | 'polly';
  /** espeak-ng voice, e.g. "en-us+f3". */
  espeakVoice: string;
  /** espeak-ng words per minute. */
  espeakRate: number;
  /** espeak-ng pitch, 0-99. */
  espeakPitch: number;
  /** Amazon Polly neural voice id, e.g. "Joanna". */
  pollyVoiceId: string;
}

/** A presenter the viewer sees speaking. `look` names its artwork in functions/render/bots. */
export interface Bot {
  uid: string;
  name: string;
  description: string;
  voice: BotVoice;
  defaultPosition: BotPosition;
  look: string;
}

/** The built-in bots, seeded into the bots table by the CDK stack and by the local runtime. */
export const BUILT_IN_BOTS: readonly Bot[] = [
  {
    uid: 'bot_ava',
    name: 'Ava',
    description: 'A composed news anchor with a warm, clear voice.',
    voice: { engine: 'espeak', espeakVoice: 'en-us+f3', espeakRate: 160, espeakPitch: 55, pollyVoiceId: 'Joanna' },
    defaultPosition: 'bottom-right',
    look: 'ava',
  },
  {
    uid: 'bot_leo',
    name: 'Leo',
    description: 'A relaxed British tech explainer.',
    voice: { engine: 'espeak', espeakVoice: 'en-gb+m3', espeakRate: 165, espeakPitch: 40, pollyVoiceId: 'Brian' },
    defaultPosition: 'bottom-left',
    look: 'leo',
  },
  {
    uid: 'bot_maya',
    name: 'Maya',
    description: 'An upbeat product presenter.',
    voice: { engine: 'espeak', espeakVoice: 'en-us+f5', espeakRate: 175, espeakPitch: 65, pollyVoiceId: 'Ruth' },
    defaultPosition: 'center',
    look: 'maya',
  },
  {
    uid: 'bot_otto',
    name: 'Otto',
    description: 'A calm, deliberate teacher with a deep voice.',
    voice: { engine: 'espeak', espeakVoice: 'en-us+m7', espeakRate: 150, espeakPitch: 30, pollyVoiceId: 'Matthew' },
    defaultPosition: 'bottom-right',
    look: 'otto',
  },
];

/** S3 key of a bot's preview image (uploaded with the seed). */
export const botPreviewKey = (bot: Pick<Bot, 'look'>) => `bots/${bot.look}/preview.png`;

/** How callers see a bot. */
