import type { FramePose } from '#functions/render/engine/animation.ts';
import type { PresenterRig } from '#functions/render/engine/rigs/presenter-rig.ts';

/** Poses that hold the body and the head's offset and turn for a few frames while the mouth, eyes and brows change (as a clip's do). */
function poseSequence(): FramePose[] {
  const mouths = ['m0', 'm2', 'm4', 'm1'];
  const list: FramePose[] = [];
  for (let i = 0; i < 24; i++) {
    list.push({
      mouth: i % 5 === 3 ? { frame: 'm1', toward: { frame: 'm3', amount: 0.4 } } : { frame: mouths[i % mouths.length]! },
      eyesOpen: i % 7 !== 6,
      bodyX: i < 12 ? 0 : -1,
      bodyY: i < 8 ? 1 : 2,
      headX: i % 12 < 6 ? 1 : 0,
      headY: 0,
      tilt: [0, 0.25, 0.5, -0.25][Math.floor(i / 4) % 4]!,
      nod: i % 12 < 8 ? 0 : 2,
      brow: i % 9 === 4 ? 3 : 0,
    });
  }
  return list;
}

/**
 * Draws poseSequence with one rig, and each pose from a whole base: by a fresh rig of its own (`fresh`), or by a
 * second rig that has just drawn the pose with its body moved (`moved`: cheaper where a fresh rig warps its
 * reference again). Answers the frames where the two differ (a rig that put back too little of its last frame),
 * and how many frames had the base of the frame before.
 */
export function framesUnlikeAlone(makeRig: () => PresenterRig, alone: 'fresh' | 'moved' = 'fresh'): { unlike: number[]; partial: number } {
  const rig = makeRig();
  const second = makeRig();
  const poses = poseSequence();
  const unlike: number[] = [];
  let partial = 0;
  for (const [i, pose] of poses.entries()) {
    const drawn = Buffer.from(rig.render(pose));
    if (alone === 'moved') second.render({ ...pose, bodyY: pose.bodyY + 3 });
    if (!drawn.equals((alone === 'fresh' ? makeRig() : second).render(pose))) unlike.push(i);
    const before = poses[i - 1];
    const same = (k: keyof FramePose) => before?.[k] === pose[k];
    if (same('bodyX') && same('bodyY') && same('headX') && same('headY') && same('tilt') && same('nod')) partial++;
  }
  return { unlike, partial };
}
