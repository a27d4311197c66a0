/**
 * A layer of a clip's picture: it adds its inputs and its filter from the picture below it (a label of the
 * FilterGraph) to its own, and returns its label. A kind of layer makes a clip's layers of that kind from the
 * scene (none, one or several); ./index.ts lists the kinds in z-order.
 */
import type { FilterGraph } from '../filter-graph.ts';
import type { Scene } from '../scene.ts';

export interface Layer {
  /** Draws this layer over `below` (undefined for the first layer, the background); returns the picture's new label. */
  draw(graph: FilterGraph, below: string | undefined): string;
}

export type LayerKind = (scene: Scene) => Layer[];

/** The picture under a layer that needs one (every layer but the background). */
export function under(below: string | undefined): string {
  if (below === undefined) throw new Error('a layer over nothing: the background must come first');
  return below;
}
