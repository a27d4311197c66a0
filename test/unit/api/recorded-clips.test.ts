/**
 * Clips that speak the caller's recording (audio_url, audio_upload): what the create request accepts and refuses
 * (each refusal at its path), the upload each clip names claimed for the video, and the render-cache key that
 * changes with the recording.
 */
import { describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { parseCreateVideo } from '#domain/create-request';
import { InvalidRequestError } from '#domain/errors';
import type { ObjectHead, UploadStore, VideoRepository } from '#domain/ports';
import { renderCacheKey } from '#domain/render-cache';
import { renderSpecOf } from '#domain/render-spec';
import { DEFAULT_SHAPE } from '#domain/shape';
import { UPLOAD_ID } from '#domain/upload-id';
import type { Upload } from '#domain/uploads';
import type { VideoRecord } from '#domain/video';
import { type CreateVideoDeps, createVideo } from '#domain/videos';
import { voiceToSpeak } from '#domain/voices';

const request = (clips: unknown[], fields: Record<string, unknown> = {}) => ({ webhook: 'https://e.com/h', clips, ...fields });
const problemsOf = (clips: unknown[], fields: Record<string, unknown> = {}) => {
  try {
    parseCreateVideo(request(clips, fields));
    return [];
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    return error.problems;
  }
};
const UPLOAD = 'upl_AAAAAAAAAAAAAAAA';

describe('a recorded clip in the create request', () => {
  it('takes audio_url or audio_upload, with its transcript or without', () => {
    expect(problemsOf([{ bot_uid: 'bot_ava', audio_url: 'https://e.com/me.wav', text: 'Hello, it is me.' }])).toEqual([]);
    expect(problemsOf([{ bot_uid: 'bot_ava', audio_upload: UPLOAD }])).toEqual([]);
    expect(UPLOAD_ID.test(UPLOAD)).toBe(true);
  });

  it('refuses both sources, neither source nor text, markup in a transcript, a malformed id, each at its path', () => {
    expect(problemsOf([{ bot_uid: 'bot_ava', audio_url: 'https://e.com/a.wav', audio_upload: UPLOAD }])).toEqual([
      { path: 'clips[0].audio_upload', message: 'give audio_url or audio_upload, not both' },
    ]);
    expect(problemsOf([{ bot_uid: 'bot_ava' }])).toEqual([{ path: 'clips[0].text', message: 'is required (or give audio_url or audio_upload)' }]);
    expect(problemsOf([{ bot_uid: 'bot_ava', audio_upload: UPLOAD, text: 'Wait <break time="1s"/> for it.' }])).toEqual([
      { path: 'clips[0].text', message: "is a recording's transcript: plain words, without markup" },
    ]);
    expect(problemsOf([{ bot_uid: 'bot_ava', audio_upload: '../../acct_b/upl_x' }])).toEqual([
      { path: 'clips[0].audio_upload', message: 'must be an upload_id from POST /v1/uploads' },
    ]);
    expect(problemsOf([{ bot_uid: 'bot_ava', audio_url: 'file:///etc/passwd' }]).map((p) => p.path)).toEqual(['clips[0].audio_url']);
  });

  it('asks for the transcript when the captions are burned', () => {
    expect(problemsOf([{ bot_uid: 'bot_ava', audio_upload: UPLOAD }], { captions: 'burn' })).toEqual([
      { path: 'clips[0].text', message: "is required for captions: give the recording's transcript, or leave captions out" },
    ]);
    expect(problemsOf([{ bot_uid: 'bot_ava', audio_upload: UPLOAD, text: 'Hello.' }], { captions: 'burn' })).toEqual([]);
  });
});

/** An account's uploads in memory, and the sizes of the files stored for them. */
function uploadsOf(uploads: Upload[]) {
  const items = new Map(uploads.map((u) => [`${u.tenantId}/${u.uploadId}`, { ...u }]));
  const store: UploadStore = {
    put: async () => undefined,
    get: async (tenantId, uploadId) => items.get(`${tenantId}/${uploadId}`),
    release: async (tenantId, uploadId, usedBy) => {
      const item = items.get(`${tenantId}/${uploadId}`);
      if (item?.usedBy === usedBy) delete item.usedBy;
    },
    countPending: async (tenantId, now) => [...items.values()].filter((u) => u.tenantId === tenantId && !u.usedBy && u.expiresAt > now).length,
    markUsed: async (tenantId, uploadId, usedBy) => {
      const item = items.get(`${tenantId}/${uploadId}`);
      if (!item || item.usedBy) return false;
      item.usedBy = usedBy;
      return true;
    },
  };
  const head = async (key: string): Promise<ObjectHead | undefined> => {
    const upload = uploads.find((u) => key === `upload-files/${u.tenantId}/${u.uploadId}`);
    return upload && { sizeBytes: upload.sizeBytes, metadata: {}, lastModified: new Date() };
  };
  return { store, head, items };
}

const upload = (uploadId: string, tenantId = 'acct_1', contentType: Upload['contentType'] = 'audio/wav'): Upload => ({
  tenantId,
  uploadId,
  kind: contentType.startsWith('audio/') ? 'audio' : 'video',
  contentType,
  sizeBytes: 1000,
  createdAt: '2026-11-27T00:00:00Z',
  expiresAt: Date.parse('2026-11-28T00:00:00Z') / 1000,
});

async function create(clips: unknown[], uploads: ReturnType<typeof uploadsOf>, failing?: { store?: boolean; queue?: boolean }): Promise<VideoRecord> {
  const created: VideoRecord[] = [];
  const fault = () => Promise.reject(new Error('service unavailable'));
  const deps: CreateVideoDeps = {
    bots: { list: async () => [...BUILT_IN_BOTS], get: async (uid) => BUILT_IN_BOTS.find((b) => b.uid === uid) },
    accountBots: { get: async () => undefined },
    accounts: { get: async () => undefined },
    voices: { polly: false },
    videos: {
      create: async (v: VideoRecord) => (failing?.store ? fault() : void created.push(v)),
      delete: async () => undefined,
      countInProgress: async () => 0,
    } as unknown as VideoRepository,
    clips: { get: async () => undefined, put: async () => undefined, list: async () => ({ items: [] }) },
    renderQueue: { send: async () => undefined, sendBatch: async () => (failing?.queue ? fault() : undefined) },
    now: () => new Date('2026-11-27T12:00:00Z'),
    newVideoId: () => 'vid_new',
    recordings: { uploads: uploads.store, objects: { head: uploads.head } },
  };
  await createVideo(parseCreateVideo(request(clips)), { tenantId: 'acct_1', keyId: 'key_1' }, deps);
  return created[0]!;
}

describe('creating a video with recorded clips', () => {
  it("stores each clip's recording and claims its upload for the video", async () => {
    const uploads = uploadsOf([upload(UPLOAD)]);
    const video = await create(
      [
        { bot_uid: 'bot_ava', audio_upload: UPLOAD, text: 'Hello.' },
        { bot_uid: 'bot_leo', audio_url: 'https://e.com/me.mp3' },
      ],
      uploads,
    );
    expect(video.clips.map((c) => c.recording)).toEqual([{ uploadKey: `upload-files/acct_1/${UPLOAD}` }, { url: 'https://e.com/me.mp3' }]);
    expect(video.clips[1]!.text).toBe('');
    expect(uploads.items.get(`acct_1/${UPLOAD}`)?.usedBy).toBe('vid_new');
  });

  it('gives the uploads back when the video cannot be stored or its renders cannot be queued, so a retry can name them', async () => {
    for (const failing of [{ store: true }, { queue: true }]) {
      const uploads = uploadsOf([upload(UPLOAD)]);
      await expect(create([{ bot_uid: 'bot_ava', audio_upload: UPLOAD, text: 'Hello.' }], uploads, failing)).rejects.toThrow('service unavailable');
      expect(uploads.items.get(`acct_1/${UPLOAD}`)?.usedBy).toBeUndefined();
      const retried = await create([{ bot_uid: 'bot_ava', audio_upload: UPLOAD, text: 'Hello.' }], uploads);
      expect(retried.clips[0]!.recording).toEqual({ uploadKey: `upload-files/acct_1/${UPLOAD}` });
    }
  });

  it("refuses another account's upload, one upload for two clips, and a footage upload, taking none of them", async () => {
    const theirs = uploadsOf([upload(UPLOAD, 'acct_2')]);
    await expect(create([{ bot_uid: 'bot_ava', audio_upload: UPLOAD }], theirs)).rejects.toThrow(InvalidRequestError);
    const mine = uploadsOf([upload(UPLOAD), upload('upl_BBBBBBBBBBBBBBBB', 'acct_1', 'video/mp4')]);
    const twice = await create(
      [
        { bot_uid: 'bot_ava', audio_upload: UPLOAD },
        { bot_uid: 'bot_ava', audio_upload: UPLOAD },
      ],
      mine,
    ).catch((e: InvalidRequestError) => e.problems);
    expect(twice).toEqual([
      { path: 'clips[1].audio_upload', message: 'names an upload another clip of this video already uses; upload the file again' },
    ]);
    const footage = await create(
      [
        { bot_uid: 'bot_ava', audio_upload: UPLOAD },
        { bot_uid: 'bot_ava', audio_upload: 'upl_BBBBBBBBBBBBBBBB' },
      ],
      mine,
    ).catch((e: InvalidRequestError) => e.problems);
    expect(footage).toEqual([{ path: 'clips[1].audio_upload', message: 'is a video upload (video/mp4); this field takes audio' }]);
    expect(mine.items.get(`acct_1/${UPLOAD}`)?.usedBy).toBeUndefined();
  });

  it('takes a transcript in French, German, Spanish, Danish or Finnish (aligned through espeak-ng), not only English', async () => {
    for (const voice of ['espeak:fr-fr+m3', 'espeak:de+m3', 'espeak:es+m3', 'espeak:da+m3', 'espeak:fi+f3']) {
      const problems = await create([{ bot_uid: 'bot_ava', voice, audio_url: 'https://e.com/a.wav', text: 'Bonjour.' }], uploadsOf([]))
        .then(() => [])
        .catch((e: InvalidRequestError) => e.problems);
      expect(problems, voice).toEqual([]);
    }
  });

  it('refuses a transcript in another language at clips[i].text, naming the languages that work', async () => {
    const problems = await create([{ bot_uid: 'bot_ava', voice: 'espeak:sv+m3', audio_url: 'https://e.com/a.wav', text: 'God dag.' }], uploadsOf([]))
      .then(() => [])
      .catch((e: InvalidRequestError) => e.problems);
    expect(problems).toEqual([{ path: 'clips[0].text', message: expect.stringContaining('English, French, German, Spanish, Danish, Finnish') }]);
  });
});

describe("a transcript in another script than its voice's language", () => {
  const problemsFor = (voice: string, text: string) =>
    create([{ bot_uid: 'bot_ava', voice, audio_url: 'https://e.com/a.wav', text }], uploadsOf([]))
      .then(() => [])
      .catch((e: InvalidRequestError) => e.problems);

  it('is refused at clips[i].text, at create, even at 12,000 characters', async () => {
    const russian = 'Привет, это мой собственный голос. '.repeat(400).slice(0, 12_000).trim();
    const started = performance.now();
    const problems = await problemsFor('espeak:en-us+m3', russian);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(problems).toEqual([
      {
        path: 'clips[0].text',
        message:
          "is mostly in another script: this clip's voice speaks English (America), written in the Latin script; give the transcript of the recording in the voice's language, or name a voice of the language the transcript is in",
      },
    ]);
    expect(await problemsFor('espeak:fr-fr+m3', 'こんにちは、これは私の声です。 Bonjour.')).toMatchObject([{ path: 'clips[0].text' }]);
    expect(await problemsFor('espeak:de+m3', 'Γειά σου κόσμε, αυτή είναι η φωνή μου')).toMatchObject([{ path: 'clips[0].text' }]);
    // Emoji and symbols are read out as words too: a transcript of them is not the recording's words.
    expect(await problemsFor('espeak:en-us+m3', `Hello ${'😀🎉✨'.repeat(600)}`)).toMatchObject([{ path: 'clips[0].text' }]);
    expect(await problemsFor('espeak:en-us+m3', '→ ★ ♥ © ® ™ ≈ ∞ § ¶ Hi')).toMatchObject([{ path: 'clips[0].text' }]);
    // A symbol is read by its name ("grinning face"): a letter between every two is read out as far more than
    // 12,000 letters (emoji, a skin-tone modifier, maths), and refused.
    for (const symbol of ['😀', '🏽', '∑'])
      expect(await problemsFor('espeak:en-us+m3', `a${symbol} `.repeat(3000))).toEqual([
        {
          path: 'clips[0].text',
          message:
            'is read out as more than 12,000 letters: each symbol or emoji is said by its name (about 12 letters), each digit as part of a number (about 7), each letter of a word without a vowel spelled out (about 5) and each pause at punctuation (about 6); write the words the recording says',
        },
      ]);
  });

  it('is refused at clips[i].text when its digits are read out far longer than 12,000 letters', async () => {
    // espeak-ng reads "1,234,567" as "one million, two hundred and thirty-four thousand, ...": up to 0.51 s a digit
    // against 0.074 s a letter of prose, so a digit counts as 7 letters (docs/your-voice.md).
    const refused = [{ path: 'clips[0].text', message: expect.stringContaining('each digit as part of a number (about 7)') }];
    for (const digits of ['1234567890'.repeat(1200), '1,234,567 '.repeat(1200), '١٢٣٤ '.repeat(2400), 'a½ '.repeat(4000)])
      expect(await problemsFor('espeak:en-us+m3', digits.trim())).toEqual(refused);
    // At the bar: 1,714 digits say 11,998 letters, 1,715 say 12,005.
    expect(await problemsFor('espeak:en-us+m3', '1'.repeat(1714))).toEqual([]);
    expect(await problemsFor('espeak:en-us+m3', '1'.repeat(1715))).toEqual(refused);
    // A long transcript with a year in every sentence still passes: 5,000 letters and 400 digits.
    expect(await problemsFor('espeak:en-us+m3', 'In 1811 the lady said she was content with the house and the garden. '.repeat(100).trim())).toEqual(
      [],
    );
  });

  it('is refused at clips[i].text when its words without a vowel, spelled out, are read far longer than 12,000 letters', async () => {
    // espeak-ng spells "www" out ("double-u double-u double-u"): 0.335 s a letter against 0.074 s of prose, so each
    // letter of a word without a vowel counts as 5 (docs/your-voice.md).
    const refused = [{ path: 'clips[0].text', message: expect.stringContaining('each letter of a word without a vowel spelled out (about 5)') }];
    for (const spelled of ['www '.repeat(2999), 'BBC CNN '.repeat(1400), 'bcdfg '.repeat(1900)])
      expect(await problemsFor('espeak:en-us+m3', spelled.trim())).toEqual(refused);
    // At the bar: 2,400 such letters say 12,000 letters, 2,403 say 12,015.
    expect(await problemsFor('espeak:en-us+m3', 'www '.repeat(800).trim())).toEqual([]);
    expect(await problemsFor('espeak:en-us+m3', 'www '.repeat(801).trim())).toEqual(refused);
    // Words with a vowel, accented or not, in every aligned language, are read, not spelled: long ones still pass.
    expect(await problemsFor('espeak:da+m3', 'Blåbærgrød og rødgrød med fløde, sagde hun. '.repeat(250).trim())).toEqual([]);
    expect(await problemsFor('espeak:fr-fr+m3', "Ça m'a été très agréable, à bientôt, œuvre. ".repeat(200).trim())).toEqual([]);
  });

  it('is refused at clips[i].text when its pauses at punctuation make it read far longer than 12,000 letters', async () => {
    // espeak-ng pauses 0.33-0.52 s at each mark: "a! " is read for 0.58 s, "a " for 0.06 s; 12,000 characters of
    // "a! " for about 2,300 s, against 680 s of prose (docs/your-voice.md). A pause counts as 6 letters.
    const refused = [{ path: 'clips[0].text', message: expect.stringContaining('each pause at punctuation (about 6)') }];
    for (const text of ['a! ', 'I. ', 'a? ', 'Go! ', 'a, ', 'a; ', 'a… ', 'a— ', '(a) '])
      expect(await problemsFor('espeak:en-us+m3', text.repeat(Math.floor(12_000 / text.length)).trim()), text).toEqual(refused);
    // Marks with no space after them pause all the same (the reviewer's readings, 12,000 characters each: "a!a!" 3,267 s,
    // "a!?" 3,636 s, 'a!"' 4,147 s, "a!-" 3,678 s, "a!)" 2,786 s, "a." and a zero-width space 1,275 s).
    for (const text of ['a!a!', 'a!?', 'a!"', 'a!-', 'a!)', 'a.\u200B'])
      expect(await problemsFor('espeak:en-us+m3', text.repeat(Math.floor(12_000 / text.length))), text).toEqual(refused);
    // At the bar: 1,714 sentences of a letter say 11,998 letters, 1,715 say 12,005.
    expect(await problemsFor('espeak:en-us+m3', 'a! '.repeat(1714).trim())).toEqual([]);
    expect(await problemsFor('espeak:en-us+m3', 'a! '.repeat(1715).trim())).toEqual(refused);
    // espeak-ng reads through an English title's point ("Mr. Darcy"), so it is no pause; another word's point is.
    expect(await problemsFor('espeak:en-us+m3', 'Mr. Darcy came in '.repeat(666).trim())).toEqual([]);
    expect(await problemsFor('espeak:en-us+m3', 'Xy. Darcy came in '.repeat(666).trim())).toEqual(refused);
    // An apostrophe or a hyphen inside a word is not a pause: 11,900 characters of them pass.
    expect(await problemsFor('espeak:en-us+m3', "don't well-known ".repeat(700).trim())).toEqual([]);
  });

  it('is refused at clips[i].text when its combining marks and punctuation, each said by a name, are read far longer than 12,000 letters', async () => {
    // The reviewer's readings (espeak-ng, scaled to 12,000 characters): a Khmer vowel sign on a Latin letter 9,200 s,
    // a Myanmar one 7,800 s, an asterisk 2,100-2,900 s, "\\ ¶ § %" 2,000-2,340 s, against 680 s of prose.
    const refused = [{ path: 'clips[0].text', message: expect.stringContaining('is read out as more than 12,000 letters') }];
    for (const [voice, text] of [
      ['espeak:fi+m3', 'aិ '],
      ['espeak:en-us+m3', 'aၠ '],
      ['espeak:en-us+m3', 'a* '],
      ['espeak:fr-fr+m3', 'a¶ '],
      ['espeak:en-us+m3', 'a\\ '],
      ['espeak:en-us+m3', 'a% '],
    ] as const)
      expect(await problemsFor(voice, text.repeat(4000).trim()), text).toEqual(refused);
    // A sentence's own punctuation is not said: a long transcript full of it passes; accents written as combining
    // marks (NFD) compose into their letters first.
    expect(await problemsFor('espeak:en-us+m3', '"Yes," she said; "why not?" It\'s fine... Really! '.repeat(150).trim())).toEqual([]);
    expect(await problemsFor('espeak:fr-fr+m3', "Ça m'a été très agréable, à bientôt. ".normalize('NFD').repeat(250).trim())).toEqual([]);
  });

  it('takes a transcript mostly in the Latin script, with accents and a few words of another', async () => {
    expect(await problemsFor('espeak:fr-fr+m3', "Ça m'a été très agréable, à bientôt.")).toEqual([]);
    expect(await problemsFor('espeak:da+m3', 'Blåbærgrød og rødgrød med fløde.')).toEqual([]);
    expect(await problemsFor('espeak:en-us+m3', 'My name is Ivan, in Russian Иван, and I live in Moscow now.')).toEqual([]);
    expect(await problemsFor('espeak:en-us+m3', '2024, 2025, 2026!')).toEqual([]);
    expect(await problemsFor('espeak:en-us+m3', 'Well done, everyone, and thank you all for coming 🎉')).toEqual([]);
    expect(await problemsFor('espeak:en-us+m3', 'It costs $5, or 4 € + tax.')).toEqual([]);
  });
});

describe('the render-cache key of a recorded clip', () => {
  it('changes with the recording, and a synthesised clip keeps its key', () => {
    const ava = BUILT_IN_BOTS.find((b) => b.uid === 'bot_ava')!;
    const clip = {
      index: 0,
      clipName: 'Clip 1',
      botUid: 'bot_ava',
      text: 'Hello.',
      position: ava.defaultPosition,
      removeBotBackground: false,
      backgroundVolume: 0,
      transitions: {},
      reusable: false,
    };
    const voice = voiceToSpeak(ava.voice, undefined, { polly: false });
    const facts = { bot: ava, voice, mode: 'video' as const, shape: DEFAULT_SHAPE, pronunciations: [] };
    const key = (recordingSha256?: string) => renderCacheKey('acct_1', '4', renderSpecOf(clip, { ...facts, recordingSha256 }));
    expect(key('a'.repeat(64))).not.toBe(key('b'.repeat(64)));
    expect(key('a'.repeat(64))).not.toBe(key());
    expect(key()).toBe(renderCacheKey('acct_1', '4', renderSpecOf(clip, facts)));
  });
});
