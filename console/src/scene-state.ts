/** The composer's scene: the video's logo, theme and music, and each clip's overlays (see state.ts for the rest). */
import { OVERLAY_IMAGE_DEFAULT_SIZE, OVERLAY_STYLES } from './options.ts';
import type { OverlayDraft, SceneDraft } from './request.ts';
import { composer, setDraft, updateClip } from './state.ts';

export function setScene(change: Partial<SceneDraft>) {
  setDraft({ scene: { ...composer.value.scene, ...change } });
}

let nextOverlayId = 1;
const overlaysOf = (clipId: number) => composer.value.clips.find((c) => c.id === clipId)?.overlays ?? [];

/** A new text (a lower third by default) or image layer at the end of a clip's overlays. */
export function addOverlay(clipId: number, type: OverlayDraft['type']) {
  const overlay: OverlayDraft = {
    id: nextOverlayId++,
    type,
    text: '',
    style: OVERLAY_STYLES[1] ?? OVERLAY_STYLES[0],
    url: '',
    start: '',
    end: '',
    position: '',
    size: OVERLAY_IMAGE_DEFAULT_SIZE,
  };
  updateClip(clipId, { overlays: [...overlaysOf(clipId), overlay] });
}

export function updateOverlay(clipId: number, overlayId: number, change: Partial<OverlayDraft>) {
  updateClip(clipId, { overlays: overlaysOf(clipId).map((o) => (o.id === overlayId ? { ...o, ...change } : o)) });
}

export function removeOverlay(clipId: number, overlayId: number) {
  updateClip(clipId, { overlays: overlaysOf(clipId).filter((o) => o.id !== overlayId) });
}
