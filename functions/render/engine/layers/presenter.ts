/** The presenter layer: its pictures, raw RGBA on ffmpeg's stdin, over the picture where it stands (sliding in and out). */
import { slideExpressions } from '../clip-timeline.ts';
import { FPS } from '../types.ts';
import { type LayerKind, under } from './layer.ts';

export const presenterLayers: LayerKind = ({ presenter, input, timing, frame }) => [
  {
    draw(graph, below) {
      graph.input('presenter', [
        ...['-protocol_whitelist', 'pipe', '-f', 'rawvideo', '-pix_fmt', 'rgba'],
        ...['-s', `${presenter.width}x${presenter.height}`, '-r', `${FPS}`, '-i', 'pipe:0'],
      ]);
      // The canvas slides; a presenter piping part of it (Presenter.crop) overlays that part where it lies on the canvas.
      const crop = presenter.crop ?? { x: 0, y: 0, canvasWidth: presenter.width };
      const { x, y, animated } = slideExpressions(input.transitions, timing, frame, presenter.place.x, presenter.place.y, crop.canvasWidth);
      const at = (expression: string, by: number) => (by ? `${expression}+${by}` : expression);
      return graph.chain(
        [under(below), graph.stream('presenter', 'v')],
        `overlay=x='${at(x, crop.x)}':y='${at(y, crop.y)}':eval=${animated ? 'frame' : 'init'}:eof_action=pass:format=yuv420`,
      );
    },
  },
];
