/**
 * What a clip's layers are drawn from, worked out once before any layer compiles: the timeline, the presenter
 * (its rig, its poses and where it stands), the captions to burn, the image layers with their pictures, the
 * background. Layers (./layers/) read it; none reads VideoClipInput's fields for what is decided here.
 */
import { type Cue, cuesFromWords, isBurnable } from '#domain/captions';
import type { SpeechScript } from '#domain/lexicon';
import type { FrameSize } from '#domain/shape';
import { type SpokenWord, spokenWords } from '#domain/spoken-words';
import type { BackgroundMedia } from '#media/background-media';
import type { ImageMedia } from '#media/image-media';
import { type ClipTiming, clipTiming } from './clip-timeline.ts';
import type { ImageLayer } from './image-layers.ts';
import { presenterFor } from './presenter.ts';
import type { Presenter, SpeechResult, VideoClipInput } from './types.ts';

/** An image layer whose picture is here. */
export type ReadyImageLayer = Omit<ImageLayer, 'image'> & { image: ImageMedia };

export interface Scene {
  input: VideoClipInput;
  frame: FrameSize;
  timing: ClipTiming;
  presenter: Presenter;
  /** The clip's captions, timed in the clip (the speech starts after the entry transition). */
  cues: Cue[];
  /** The clip's spoken words, timed in the clip as its cues are. */
  words: SpokenWord[];
  /** Whether the captions are drawn into the picture (asked, and the caption font can draw the text). */
  burnCaptions: boolean;
  /** The caller's background (absent: the default backdrop). */
  background?: BackgroundMedia;
  images: ReadyImageLayer[];
}

/** The scene of a video clip, once its speech is made: the background and image layers' downloads awaited here. */
export async function sceneOf(input: VideoClipInput, script: SpeechScript, speech: SpeechResult): Promise<Scene> {
  const timing = clipTiming(speech.durationSeconds, input.transitions);
  const presenter = await presenterFor(input, speech, timing);
  const cues = cuesFromWords(script.shown, speech.words, timing.entrySeconds);
  const words = spokenWords(script.shown, speech.words, timing.entrySeconds);
  const background = await input.background;
  // Each image downloaded while the speech was synthesised.
  const images: ReadyImageLayer[] = [];
  for (const layer of input.imageLayers ?? []) images.push({ ...layer, image: await layer.image });
  const burnCaptions = input.captions === 'burn' && cues.length > 0 && isBurnable(input.text);
  return { input, frame: input.frame, timing, presenter, cues, words, burnCaptions, images, ...(background && { background }) };
}
