/** The wipe transitions: a black card sweeping in to uncover the picture, or over it to cover it (clip-timeline.ts). */
import { wipesOf } from '../clip-timeline.ts';
import { type LayerKind, under } from './layer.ts';

export const wipeLayers: LayerKind = ({ input, timing, frame }) =>
  wipesOf(input.transitions, timing, frame).map((wipe) => ({
    draw: (graph, below) => graph.chain([under(below), graph.source(wipe.source, 'wipe')], wipe.overlay),
  }));
