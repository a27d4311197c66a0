import { useEffect, useRef } from 'preact/hooks';
import { shownText } from '#domain/speech-markup';
import { isFinished, type Video } from '../api.ts';
import { selectedVideo, selectedVideoId, selectVideo, videos, videosLoaded } from '../state.ts';
import { Progress, StatusBadge } from './Status.tsx';
import { VideoDetail } from './VideoDetail.tsx';

const FIRST_WORDS_CHARS = 80;
const firstWords = (text: string) => (text.length > FIRST_WORDS_CHARS ? `${text.slice(0, FIRST_WORDS_CHARS).trimEnd()}…` : text);

/** The name the service gives a clip its caller did not name (`Clip 1`): no name to tell videos apart by. */
const GIVEN_NAME = /^Clip \d+$/;

/**
 * A video as a list shows it: its poster, a title (its first clip's name if the caller gave one, else its first
 * words as said, without markup), who speaks and how many clips, its status.
 */
function VideoRow({ video }: { video: Video }) {
  const first = video.clips[0];
  const thumbnail = video.output?.thumbnail_url;
  // A tag removed between two words leaves their two spaces: one is shown.
  const words = first?.text ? firstWords(shownText(first.text).replace(/\s+/g, ' ').trim()) : '';
  const named = first && !GIVEN_NAME.test(first.clip_name) ? first.clip_name : undefined;
  const count = video.clips.length;
  const about = [named && words, first?.bot_uid, `${count} ${count === 1 ? 'clip' : 'clips'}`].filter(Boolean).join(' · ');
  return (
    <button
      type="button"
      class={`video-row${selectedVideoId.value === video.video_id ? ' selected' : ''}`}
      aria-pressed={selectedVideoId.value === video.video_id}
      onClick={() => selectVideo(video.video_id)}
    >
      {thumbnail ? (
        <img class="thumb" src={thumbnail} alt="" loading="lazy" />
      ) : (
        <span class="thumb" aria-hidden="true">
          {video.create_video ? '▶' : '♪'}
        </span>
      )}
      <span class="name">{named ?? (words || video.video_id)}</span>
      <span class="words">{about}</span>
      <span class="row-top">
        <code>{video.video_id}</code>
        <StatusBadge status={video.status} />
      </span>
      <span class="row-bottom">
        {isFinished(video) ? (
          <span class="help">
            {new Date(video.created_at).toLocaleString()} · {video.create_video ? 'video' : 'voice only'}
          </span>
        ) : (
          <Progress video={video} />
        )}
      </span>
    </button>
  );
}

export function Videos() {
  const list = videos.value;
  const detail = useRef<HTMLDivElement>(null);
  const chosen = selectedVideoId.value;
  // On a phone the detail is below the list: bring it into view when a video is picked.
  useEffect(() => {
    if (chosen && window.matchMedia('(max-width: 760px)').matches) detail.current?.scrollIntoView({ block: 'start' });
  }, [chosen]);
  return (
    <section aria-labelledby="videos-title" class="videos">
      <h2 id="videos-title">Videos</h2>
      <div class="split">
        <div class="list">
          {list.length === 0 && <p class="help">{videosLoaded.value ? 'No videos yet. Make one under “Create”.' : 'Loading your videos…'}</p>}
          <ul class="video-list">
            {list.map((video) => (
              <li>
                <VideoRow video={video} />
              </li>
            ))}
          </ul>
        </div>
        <div class="detail" ref={detail}>
          {selectedVideo.value ? (
            <VideoDetail video={selectedVideo.value} />
          ) : (
            <p class="help">Pick a video to see its clips, its file and its webhook attempts.</p>
          )}
        </div>
      </div>
    </section>
  );
}
