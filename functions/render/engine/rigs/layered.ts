/**
 * The layered rig (the built-in looks): the head is a layer of its own over the body, turned whole about the
 * pivot with its brows lifted, and moved by the pose's head offset and nod; the back hair turns with it.
 */
import { blendOver } from '#media/raster/blend';
import { type Box, boundsOf, EMPTY_BOX, unionOf } from '#media/raster/box';
import type { Picture } from '#media/raster/picture';
import type { FramePose } from '../animation.ts';
import { type HeadPose, reachOf, type WarpRegion, warpInto, warpRegion } from '../head-motion.ts';
import { PicturePool } from '../picture-pool.ts';
import type { BotSprites } from '../sprites.ts';
import type { RigOptions } from './presenter-rig.ts';
import { changedPixels, headPoseOf, MAX_BACKS, mouthKey, SpriteRig } from './sprite-rig.ts';

export class LayeredRig extends SpriteRig {
  protected readonly headRegion: WarpRegion;
  protected readonly changed: Uint8Array;
  protected readonly bodyLayer: Picture;
  private readonly backRegion?: WarpRegion;
  /** The boxes outside which the warped sources are transparent (the head frames; the back hair). */
  private readonly headWithin?: Box;
  private readonly backWithin?: Box;
  /** The back hair turned, by tilt (the nod moves it whole): a clip meets a dozen, and bases are redrawn far more often. */
  private readonly backs = new PicturePool<Picture>({ maxEntries: MAX_BACKS });

  constructor(sprites: BotSprites, options: RigOptions) {
    super(sprites, options);
    this.bodyLayer = sprites.body;
    // A head layer turns whole about the pivot (its box widened by how far its corners may move); so does the back hair.
    const { headX, headY } = sprites;
    const { width, height } = sprites.heads.values().next().value![0];
    const browReach = 6 * sprites.scale;
    const m = reachOf(this.face, sprites.scale, { x: headX, y: headY, width, height }, browReach);
    this.headWithin = unionOf([...sprites.heads.values()].flat().map(boundsOf));
    this.headRegion = warpRegion(this.face, sprites.scale, { x: headX - m, y: headY - m, width: width + 2 * m, height: height + 2 * m }, true, true);
    this.changed = changedPixels(this.headRegion, this.reference(), [...sprites.heads.values()].flat(), headX, headY, m);
    const back = boundsOf(sprites.back);
    if (back) {
      const mb = reachOf(this.face, sprites.scale, back, 0);
      this.backRegion = warpRegion(
        this.face,
        sprites.scale,
        { x: back.x - mb, y: back.y - mb, width: back.width + 2 * mb, height: back.height + 2 * mb },
        true,
        false,
      );
      this.backWithin = back;
    }
  }

  protected override drawBack(canvas: Picture, headDx: number, headDy: number, turn: HeadPose): void {
    const region = this.backRegion;
    if (region && turn.tilt) blendOver(canvas, this.turnedBack(turn.tilt), headDx + region.x, headDy + region.y + turn.nod, this.mask);
    else super.drawBack(canvas, headDx, headDy, turn);
  }

  private turnedBack(tilt: number): Picture {
    const region = this.backRegion!;
    return this.backs.getOrMake(`${tilt}`, (recycled) => {
      const back = this.reuse(recycled, region);
      warpInto(back.data, this.sprites.back, 0, 0, region, this.face, this.sprites.scale, { tilt, nod: 0, brow: 0 }, true, this.backWithin!);
      return back;
    });
  }

  protected drawHead(frame: Picture, pose: FramePose): Box {
    const { picture, x, y } = this.turnedHead(pose);
    const at = { x: x + pose.bodyX + pose.headX, y: y + pose.bodyY + pose.headY + (pose.nod ?? 0) };
    blendOver(frame, picture, at.x, at.y);
    return { ...at, width: picture.width, height: picture.height };
  }

  /** The head frame turned about the pivot with its brows lifted, and where it goes (nod not included). */
  private turnedHead(pose: FramePose): { picture: Picture; x: number; y: number } {
    const turn = headPoseOf(pose, true);
    if (!turn.tilt && !turn.brow) return { picture: this.head(pose), x: this.sprites.headX, y: this.sprites.headY };
    const region = this.headRegion;
    const key = `${mouthKey(pose.mouth)},${pose.eyesOpen},${turn.tilt},${turn.brow}`;
    const warp = (into: Picture, source: Picture, only?: Uint8Array) =>
      warpInto(
        into.data,
        source,
        this.sprites.headX,
        this.sprites.headY,
        region,
        this.face,
        this.sprites.scale,
        turn,
        true,
        this.headWithin ?? EMPTY_BOX,
        only,
      );
    return {
      picture: this.fromReference(
        key,
        `${turn.tilt},${turn.brow}`,
        () => this.head(pose),
        (into) => warp(into, this.reference()),
        warp,
      ),
      x: region.x,
      y: region.y,
    };
  }
}
