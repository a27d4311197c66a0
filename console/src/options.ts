/**
 * What the API accepts today, in one place. When the API gains a field (aspect ratio, resolution, captions, a
 * voice per clip), its values go here, its control in components/VideoOptions.tsx or ClipEditor.tsx, and its
 * field in request.ts, which sends only what the API accepts (it refuses unknown clip fields with a 400).
 */

export const LIMITS = { textPerClip: 2000, textPerVideo: 10000, clips: 10, clipName: 100 } as const;

/** Frame shapes the API renders. Today one: 1280x720. (An `aspect_ratio` option would list more here.) */
export const FRAME_SHAPES = [{ id: '16:9', label: '16:9 (1280x720)', width: 16, height: 9 }] as const;

export const POSITIONS = [
  'top-left', 'top-center', 'top-right',
  'center-left', 'center', 'center-right',
  'bottom-left', 'bottom-center', 'bottom-right',
] as const;

export const ENTRY_TRANSITIONS = ['fade_in', 'slide_in_left', 'slide_in_right', 'slide_in_up', 'wipe_in', 'zoom_in'] as const;
export const EXIT_TRANSITIONS = ['fade_out', 'slide_out_left', 'slide_out_right', 'slide_out_down', 'wipe_out', 'zoom_out'] as const;

export const DEFAULT_BACKGROUND_VOLUME = 0.2;

export const humanize = (name: string) => name.replace(/[_-]/g, ' ');
