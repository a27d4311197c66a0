/**
 * The single-picture rig (photo and drawn looks): head and body are one picture, so they sway together (no seam
 * at the neck). The figure's rows above the neck, with the pose's head frame, are warped (turned, nodded, brows
 * lifted); the rows below never move.
 */
import { blendOver } from '#media/raster/blend';
import { type Box, boundsOf, clipTo, cropInto, differingBox, EMPTY_BOX, sizeOf, unionOf, widenBox } from '#media/raster/box';
import type { Picture } from '#media/raster/picture';
import type { FramePose } from '../animation.ts';
import { reachOf, type WarpRegion, warpInto, warpRegion, widen } from '../head-motion.ts';
import type { BotSprites } from '../sprites.ts';
import type { RigOptions } from './presenter-rig.ts';
import { changedPixels, headPoseOf, mouthKey, SpriteRig } from './sprite-rig.ts';

export class SinglePictureRig extends SpriteRig {
  protected readonly headRegion: WarpRegion;
  protected readonly changed: Uint8Array;
  /** The figure from the first row that never moves down (drawn on every base). */
  protected readonly bodyLayer: Picture;
  /** The box outside which the warped upper figure is transparent. */
  private readonly headWithin?: Box;
  /** `changed` and the pixels the brows lift (the brows are drawn as the mouth and eyes are, not by turn). */
  private readonly changedOrBrows: Uint8Array;
  /** The region's pixels within the motion's reach of the person (elsewhere the warped figure is clear). */
  private readonly reaches: Uint8Array;
  /** The head frames' box on the upper figure (clipped to it). */
  private readonly upperHead: Box;
  /** The figure above the first row that never moves. */
  private readonly upperBody: Picture;
  private upper?: Picture;
  /** Whether `upper` holds the reference head frame (else another one, over the same upper body). */
  private upperIsReference = false;

  constructor(sprites: BotSprites, options: RigOptions) {
    super(sprites, options);
    const split = Math.min(
      this.height,
      Math.ceil(Math.max(this.face.pivot.y * sprites.scale + 2, sprites.headY + sprites.heads.values().next().value![0].height)),
    );
    const rows = { x: 0, y: 0, width: this.width, height: split };
    const body = sprites.body;
    this.upperBody = { width: body.width, height: split, data: body.data.subarray(0, body.width * split * 4) };
    const head = unionOf([...sprites.heads.values()].flat().map(boundsOf));
    this.headWithin = unionOf([boundsOf(this.upperBody), head && { ...head, x: head.x + sprites.headX, y: head.y + sprites.headY }]);
    const reach = reachOf(this.face, sprites.scale, rows, 8 * sprites.scale);
    // Only the person moves (the backdrop is the panel's): beyond its box widened by the motion's reach, the warped
    // figure is transparent, so the warp region is that box, not the whole rows of the card.
    this.headRegion = warpRegion(this.face, sprites.scale, clipTo(widenBox(this.headWithin ?? EMPTY_BOX, reach), rows), false, true);
    const frames = [...sprites.heads.values()].flat();
    // The frames differ only around the mouth and the eyes, near the pivot: their pixels move by far less than the
    // region's corners (the motion's reach is taken where they are, widened by itself until it holds).
    const differing = differingBox(this.reference(), frames);
    let near = reach;
    if (differing) {
      const box = { ...differing, x: differing.x + sprites.headX, y: differing.y + sprites.headY };
      near = reachOf(this.face, sprites.scale, box, 8 * sprites.scale);
      for (let k = 0; k < 3; k++) near = Math.min(reach, reachOf(this.face, sprites.scale, widenBox(box, near), 8 * sprites.scale));
    }
    this.changed = changedPixels(this.headRegion, this.reference(), frames, sprites.headX, sprites.headY, near);
    this.changedOrBrows = this.changed.map((c, i) => (c || this.headRegion.browBump[i]! > 0 ? 1 : 0));
    this.upperHead = clipTo({ x: sprites.headX, y: sprites.headY, ...sizeOf(this.reference()) }, rows);
    this.reaches = this.personReach(frames, reach);
    const lower = Buffer.from(body.data);
    lower.fill(0, 0, body.width * split * 4);
    this.bodyLayer = { width: body.width, height: body.height, data: lower };
  }

  /** Within the warp region, too, only the pixels the motion can bring a pixel of the person to are warped. */
  private personReach(frames: Picture[], reach: number): Uint8Array {
    const region = this.headRegion;
    const person = new Uint8Array(region.width * region.height);
    const figure = this.figure(this.reference()).data;
    for (let y = 0; y < region.height; y++) {
      for (let x = 0; x < region.width; x++) if (figure[((region.y + y) * this.width + region.x + x) * 4 + 3]) person[y * region.width + x] = 1;
    }
    for (const frame of frames) {
      for (let y = 0; y < frame.height; y++) {
        const ry = this.sprites.headY + y - region.y;
        if (ry < 0 || ry >= region.height) continue;
        for (let x = 0; x < frame.width; x++) {
          const rx = this.sprites.headX + x - region.x;
          if (rx >= 0 && rx < region.width && frame.data[(y * frame.width + x) * 4 + 3]) person[ry * region.width + rx] = 1;
        }
      }
    }
    return widen(person, region.width, region.height, reach + 2);
  }

  /** The head stays on the body: the pose's head offset is not drawn. */
  protected override posed(pose: FramePose): FramePose {
    return { ...pose, headX: 0, headY: 0 };
  }

  protected drawHead(frame: Picture, pose: FramePose): Box {
    const region = this.headRegion;
    const at = { x: pose.bodyX + region.x, y: pose.bodyY + region.y };
    blendOver(frame, this.upperFigure(pose), at.x, at.y, this.mask);
    return { ...at, width: region.width, height: region.height };
  }

  /**
   * The upper body with a head frame over it (the warp's source). Made once with the reference frame; for another
   * frame only the head's box is put back from the upper body and the frame blended there.
   */
  private figure(head: Picture): Picture {
    const body = this.upperBody;
    let upper = this.upper;
    if (!upper) {
      upper = this.upper = { width: body.width, height: body.height, data: Buffer.from(body.data) };
      blendOver(upper, this.reference(), this.sprites.headX, this.sprites.headY);
      this.upperIsReference = true;
    }
    const isReference = head === this.reference();
    if (isReference && this.upperIsReference) return upper;
    const box = this.upperHead;
    for (let y = box.y; y < box.y + box.height; y++) {
      const from = (y * body.width + box.x) * 4;
      body.data.copy(upper.data, from, from, from + box.width * 4);
    }
    blendOver(upper, head, this.sprites.headX, this.sprites.headY);
    this.upperIsReference = isReference;
    return upper;
  }

  /** The figure above the neck with the pose's head frame, turned, nodded and its brows lifted. */
  private upperFigure(pose: FramePose): Picture {
    const turn = headPoseOf(pose, false);
    const key = `${mouthKey(pose.mouth)},${pose.eyesOpen},${turn.tilt},${turn.nod},${turn.brow}`;
    const region = this.headRegion;
    if (!turn.tilt && !turn.nod && !turn.brow) return this.warpedPicture(key, (into) => cropInto(into, this.figure(this.head(pose)), region));
    const warp = (into: Picture, source: Picture, only: Uint8Array | undefined, brow: number) =>
      warpInto(into.data, source, 0, 0, region, this.face, this.sprites.scale, { ...turn, brow }, false, this.headWithin ?? EMPTY_BOX, only);
    // The turn's reference has the brows at rest; a lifted brow is redrawn with the mouth and the eyes.
    return this.fromReference(
      key,
      `${turn.tilt},${turn.nod}`,
      () => this.head(pose),
      (into) => {
        into.data.fill(0);
        warp(into, this.figure(this.reference()), this.reaches, 0);
      },
      (into, source, only) => warp(into, this.figure(source), only, turn.brow),
      turn.brow ? this.changedOrBrows : this.changed,
    );
  }
}
