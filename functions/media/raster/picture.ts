/**
 * A picture in memory: straight (not premultiplied) RGBA, row by row. The one pixel type of the render engine,
 * the look builders (functions/prepare) and the built-in art (infra/bot-art).
 */
export interface Picture {
  width: number;
  height: number;
  data: Buffer;
}
