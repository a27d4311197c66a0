import { isFinished } from '../api.ts';
import { selectedVideo, selectedVideoId, selectVideo, videos } from '../state.ts';
import { Progress, StatusBadge } from './Status.tsx';
import { VideoDetail } from './VideoDetail.tsx';

export function Videos() {
  const list = videos.value;
  return (
    <section aria-labelledby="videos-title" class="videos">
      <h2 id="videos-title">Videos</h2>
      <div class="split">
        <div class="list">
          {list.length === 0 && <p class="help">No videos yet. Make one under “Create”.</p>}
          <ul class="video-list">
            {list.map((video) => (
              <li>
                <button type="button" class={`video-row${selectedVideoId.value === video.video_id ? ' selected' : ''}`} aria-pressed={selectedVideoId.value === video.video_id} onClick={() => selectVideo(video.video_id)}>
                  <span class="row-top">
                    <code>{video.video_id}</code>
                    <StatusBadge status={video.status} />
                  </span>
                  <span class="row-bottom">
                    {isFinished(video) ? <span class="help">{new Date(video.created_at).toLocaleString()} · {video.create_video ? 'video' : 'voice only'}</span> : <Progress video={video} />}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
        <div class="detail">{selectedVideo.value ? <VideoDetail video={selectedVideo.value} /> : <p class="help">Pick a video to see its clips, its file and its webhook attempts.</p>}</div>
      </div>
    </section>
  );
}
