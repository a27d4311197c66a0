import type { Video } from '../api.ts';

export function StatusBadge({ status }: { status: Video['status'] }) {
  const kind = status === 'completed' ? 'ok' : status === 'failed' ? 'bad' : 'busy';
  return <span class={`badge ${kind}`}>{status}</span>;
}

export function Progress({ video }: { video: Video }) {
  const { clips_total: total, clips_rendered: done } = video.progress;
  const label = `${done} of ${total} clips rendered`;
  return (
    <span class="progress-wrap">
      <progress max={total} value={done} aria-label={`Progress of ${video.video_id}`} />
      <span class="help">{label}</span>
    </span>
  );
}
