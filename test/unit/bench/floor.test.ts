import { describe, expect, it } from 'vitest';
import { floorInput, recordingDecode } from '../../../infra/scripts/bench/support.ts';

const frame = { width: 1280, height: 720 };

describe("the bench's floor", () => {
  it('decodes the background alone for every kind but the video bot, its streams picked by ffmpeg', () => {
    const args = floorInput('bg.mp4', frame);
    expect(args.filter((a) => a === '-i')).toHaveLength(1);
    expect(args).not.toContain('-map');
  });

  it("also decodes a video bot's recording, looped, into a second output that discards it", () => {
    const args = floorInput('bg.mp4', frame, 'person.mp4');
    const inputs = args.flatMap((a, i) => (a === '-i' ? [args[i + 1]] : []));
    expect(inputs).toEqual(['bg.mp4', 'person.mp4']);
    // Both inputs loop, so the recording is decoded for the clip's whole length as the background is.
    expect(args.filter((a) => a === '-stream_loop')).toHaveLength(2);
    // The encoded output is the background's picture and sound, never the recording's.
    const maps = args.flatMap((a, i) => (a === '-map' ? [args[i + 1]] : []));
    expect(maps).toEqual(['0:v:0', '0:a:0']);
    expect(recordingDecode(57.6)).toEqual(['-map', '1:v:0', '-t', '57.6', '-f', 'null', '-']);
  });
});
