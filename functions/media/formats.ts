/** Output formats, shared by renderClip, concatClips and the benchmark's bare encode. */

/** x264 settings of every rendered clip; infra/scripts/bench/engine.ts uses the same for its baseline. */
export const VIDEO_ENCODE_ARGS = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-profile:v', 'high'] as const;
/** Every clip's audio is the same (48 kHz stereo AAC) so clips join by stream copy. */
export const AUDIO_ENCODE_ARGS = ['-c:a', 'aac', '-b:a', '128k', '-ar', '48000', '-ac', '2'] as const;
export const VOICE_ENCODE_ARGS = ['-ac', '1', '-ar', '44100', '-c:a', 'libmp3lame', '-b:a', '96k'] as const;
export const VIDEO_CONTENT_TYPE = 'video/mp4';
export const VOICE_CONTENT_TYPE = 'audio/mpeg';
export const POSTER_CONTENT_TYPE = 'image/jpeg';
/** A poster: one JPEG frame (an ffmpeg output's options, after its -map). */
export const POSTER_ENCODE_ARGS = ['-frames:v', '1', '-q:v', '3', '-f', 'image2', '-c:v', 'mjpeg'] as const;
