/**
 * A clip's sound: the speech after the entry transition, mixed with the background's own audio at the asked
 * volume, faded with the picture (clip-timeline.ts). Its inputs and filters go into the clip's FilterGraph.
 */
import { type ClipTiming, fadesOf, speechDelayMs } from './clip-timeline.ts';
import { type FilterGraph, filterNumber } from './filter-graph.ts';
import type { Scene } from './scene.ts';

/** Adds the speech (`wavPath`) and the sound's filters to `graph`; returns the sound's label. */
export function soundtrack(graph: FilterGraph, { input, timing, background }: Scene, wavPath: string): string {
  graph.input('speech', ['-protocol_whitelist', 'file', '-f', 'wav', '-i', wavPath]);
  const delayMs = speechDelayMs(timing);
  const speech = graph.chain(
    graph.stream('speech', 'a'),
    `aresample=48000,aformat=sample_fmts=fltp:channel_layouts=mono${delayMs ? `,adelay=${delayMs}` : ''},apad`,
    'speech',
  );
  let sound: string;
  if (background?.hasAudio && input.backgroundVolume > 0) {
    const bed = graph.chain(
      graph.stream('background', 'a'),
      `aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,volume=${filterNumber(input.backgroundVolume)}`,
      'bga',
    );
    sound = graph.chain([speech, bed], 'amerge=inputs=2,pan=stereo|c0=c0+c1|c1=c0+c2', 'a');
  } else {
    sound = graph.chain(speech, 'pan=stereo|c0=c0|c1=c0', 'a');
  }
  return fadeSound(graph, sound, input.transitions, timing);
}

function fadeSound(graph: FilterGraph, sound: string, transitions: Scene['input']['transitions'], timing: ClipTiming): string {
  const fades = fadesOf(transitions, timing, true);
  return fades.length ? graph.chain(sound, fades.join(','), 'a') : sound;
}
