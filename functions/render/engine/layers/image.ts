/**
 * The image layers (overlays' images, then the logo), in order, the last on top. Each picture is decoded, scaled
 * and made translucent once, and its one frame is blended over every frame of the clip (over those of its window
 * only: clip-timeline.ts layerWindow): a layer costs an alpha blend of its own rectangle per frame.
 */
import { imageInputArgs } from '#media/image-media';
import { layerWindow } from '../clip-timeline.ts';
import { filterNumber } from '../filter-graph.ts';
import { imageBoxOf } from '../image-layers.ts';
import type { ReadyImageLayer } from '../scene.ts';
import { type LayerKind, under } from './layer.ts';

export const imageLayers: LayerKind = ({ images, frame }) =>
  images.map((layer, i) => ({
    draw(graph, below) {
      const name = `image${i}`;
      graph.input(name, [...imageInputArgs(layer.image), '-i', layer.image.path]);
      const box = imageBoxOf(frame, layer.image, layer.position, layer.size);
      const window = layerWindow(layer.start, layer.end);
      const picture = graph.chain(graph.stream(name, 'v'), [...pictureSteps(layer, box), ...(window?.steps ?? [])].join(','), 'img');
      // A layer for the whole clip is that one frame: the blend keeps drawing it after its input ends (overlay's
      // eof_action=repeat), at no cost per frame. Repeating it with `loop` instead cost ~10 % more CPU per clip.
      return graph.chain([under(below), picture], `overlay=x=${box.x}:y=${box.y}:eval=init:eof_action=repeat:format=yuv420${window?.enable ?? ''}`);
    },
  }));

/** The layer's one picture at its box's size and its opacity, in the blend's format. */
const pictureSteps = (layer: ReadyImageLayer, box: { width: number; height: number }) => [
  // One picture (a file of several PNGs is read for its first), its alpha premultiplied while it is scaled so
  // that transparent pixels' colours do not bleed into its edges, then made as translucent as asked.
  'trim=end_frame=1',
  'format=gbrap',
  'premultiply=inplace=1',
  `scale=${box.width}:${box.height}:flags=lanczos`,
  'unpremultiply=inplace=1',
  'format=rgba',
  ...(layer.opacity < 1 ? [`colorchannelmixer=aa=${filterNumber(layer.opacity)}`] : []),
  // Converted to what the blend takes once, here, and not per frame.
  'format=yuva420p',
];
