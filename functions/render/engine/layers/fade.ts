/** The fade transitions: the whole picture from and to black (clip-timeline.ts). */
import { fadesOf } from '../clip-timeline.ts';
import { type LayerKind, under } from './layer.ts';

export const fadeLayers: LayerKind = ({ input, timing }) =>
  fadesOf(input.transitions, timing).map((fade) => ({ draw: (graph, below) => graph.chain(under(below), fade) }));
