/**
 * The kinds of layer a clip's picture is made of, bottom to top: the order of this list is the z-order. A new kind
 * is a file in this folder and a line here (docs/contributing.md).
 */
import type { FilterGraph } from '../filter-graph.ts';
import type { Scene } from '../scene.ts';
import { backgroundLayers } from './background.ts';
import { fadeLayers } from './fade.ts';
import { imageLayers } from './image.ts';
import type { LayerKind } from './layer.ts';
import { presenterLayers } from './presenter.ts';
import { textLayers } from './text.ts';
import { wipeLayers } from './wipe.ts';

const LAYER_KINDS: readonly LayerKind[] = [
  backgroundLayers,
  presenterLayers,
  // Images go over the presenter and under the transitions: a logo wipes and fades with the picture.
  imageLayers,
  wipeLayers,
  // Burned captions and text overlays go over everything but the fades (they fade with the picture).
  textLayers,
  fadeLayers,
];

/** Compiles every layer of the scene into `graph`, in z-order; returns the finished picture's label. */
export function drawLayers(graph: FilterGraph, scene: Scene): string {
  let picture: string | undefined;
  for (const kind of LAYER_KINDS) for (const layer of kind(scene)) picture = layer.draw(graph, picture);
  if (picture === undefined) throw new Error('a clip without layers');
  return picture;
}
