import type { BotPosition } from './choices.ts';
import type { BotVoice } from './voices.ts';

/** A presenter the viewer sees speaking. `look` names its artwork in functions/render/bots. */
export interface Bot {
  uid: string;
  name: string;
  description: string;
  /** Its espeak-ng voice, and the neural Polly voice it speaks where the deployment uses Polly (see voiceToSpeak). */
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
    voice: { espeak: 'espeak:en-us+f5', espeakRate: 160, espeakPitch: 55, polly: 'polly:Joanna' },
    defaultPosition: 'bottom-right',
    look: 'ava',
  },
  {
    uid: 'bot_leo',
    name: 'Leo',
    description: 'A relaxed British tech explainer.',
    voice: { espeak: 'espeak:en-gb+m5', espeakRate: 165, espeakPitch: 30, polly: 'polly:Brian' },
    defaultPosition: 'bottom-left',
    look: 'leo',
  },
  {
    uid: 'bot_maya',
    name: 'Maya',
    description: 'An upbeat product presenter.',
    voice: { espeak: 'espeak:en-us+f2', espeakRate: 165, espeakPitch: 65, polly: 'polly:Ruth' },
    defaultPosition: 'center',
    look: 'maya',
  },
  {
    uid: 'bot_otto',
    name: 'Otto',
    description: 'A calm, deliberate teacher with a deep voice.',
    voice: { espeak: 'espeak:en-us+m6', espeakRate: 150, espeakPitch: 30, polly: 'polly:Matthew' },
    defaultPosition: 'bottom-right',
    look: 'otto',
  },
];

/** S3 key of a bot's preview image (uploaded with the seed). */
export const botPreviewKey = (bot: Pick<Bot, 'look'>) => `bots/${bot.look}/preview.png`;

/** How callers see a bot. */
