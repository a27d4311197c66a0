import { useEffect, useState } from 'preact/hooks';

/** Word counts by video, read once per page: the file does not change, and every poll presigns a new link. */
const counted = new Map<string, number>();

/**
 * The link to a finished video's words file (`output.captions.words_url`: every spoken word with its times) and
 * how many words it holds, read from the file itself.
 */
export function WordsLink({ videoId, url }: { videoId: string; url: string }) {
  const [count, setCount] = useState<number | null>(counted.get(videoId) ?? null);
  useEffect(() => {
    if (counted.has(videoId)) return;
    let live = true;
    fetch(url, { cache: 'no-store' })
      .then((response) => (response.ok ? response.json() : null))
      .then((words: unknown) => {
        if (!Array.isArray(words)) return;
        counted.set(videoId, words.length);
        if (live) setCount(words.length);
      })
      // Without a count the link still works; the page shows no number rather than a wrong one.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [videoId]);
  return (
    <a class="button" href={url} download={`${videoId}.words.json`}>
      Words (JSON){count !== null && ` · ${count} ${count === 1 ? 'word' : 'words'}`}
    </a>
  );
}
