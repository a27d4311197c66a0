/**
 * The console's voice picker (grouping, filter) and bot form (uid, checks, multipart body, a recording's JSON body,
 * curl), and a failed bot's advice, without a browser.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DRAWN_PARTS } from '#domain/account-bot';
import { whatToDo } from '../../../console/src/bot-failures.ts';
import {
  answeredPaths,
  type BotDraft,
  botCurlCommand,
  botDraftProblems,
  botFormData,
  DRAWN_LAYERS,
  emptyBotDraft,
  suggestUid,
  videoBotBody,
} from '../../../console/src/bot-form.ts';
import { describeVoice, groupVoices, matchesVoice, type Voice } from '../../../console/src/voices.ts';

const VOICES: Voice[] = [
  { id: 'espeak:es', language: 'es', language_name: 'Spanish', engine: 'espeak' },
  { id: 'polly:Lucia', language: 'es-ES', language_name: 'Spanish', gender: 'female', engine: 'polly' },
  { id: 'espeak:en-us+f3', language: 'en-US', language_name: 'English (America)', gender: 'female', engine: 'espeak' },
  { id: 'espeak:en-gb+m3', language: 'en-GB', language_name: 'English (Great Britain)', gender: 'male', engine: 'espeak' },
  { id: 'espeak:de', language: 'de', language_name: 'German', engine: 'espeak' },
];

const png = (name: string, bytes = 8) => new File([new Uint8Array(bytes)], name, { type: 'image/png' });
const draft = (overrides: Partial<BotDraft> = {}): BotDraft => ({ ...emptyBotDraft(), name: 'Sol', uid: 'sol', ...overrides });

describe('voice picker', () => {
  it('groups by language name, groups and voices in order', () => {
    const groups = groupVoices(VOICES);
    expect(groups.map((g) => g.language)).toEqual(['English (America)', 'English (Great Britain)', 'German', 'Spanish']);
    expect(groups.find((g) => g.language === 'Spanish')!.voices.map((v) => v.id)).toEqual(['espeak:es', 'polly:Lucia']);
  });

  it('filters by every word typed, across id, tag, language and gender', () => {
    expect(groupVoices(VOICES, 'spanish').flatMap((g) => g.voices.map((v) => v.id))).toEqual(['espeak:es', 'polly:Lucia']);
    expect(groupVoices(VOICES, 'Spanish FEMALE').flatMap((g) => g.voices.map((v) => v.id))).toEqual(['polly:Lucia']);
    expect(groupVoices(VOICES, 'en-gb').flatMap((g) => g.voices.map((v) => v.id))).toEqual(['espeak:en-gb+m3']);
    expect(groupVoices(VOICES, 'klingon')).toEqual([]);
    expect(matchesVoice(VOICES[0]!, '  ')).toBe(true);
  });

  it('keeps the chosen voice listed whatever the filter', () => {
    expect(groupVoices(VOICES, 'german', 'espeak:es').flatMap((g) => g.voices.map((v) => v.id))).toEqual(['espeak:de', 'espeak:es']);
  });

  it('describes a voice id from the catalog, or as the id when unknown', () => {
    expect(describeVoice('polly:Lucia', VOICES)).toBe('Spanish · female · polly:Lucia');
    expect(describeVoice('espeak:xx', VOICES)).toBe('espeak:xx');
  });
});

describe('bot form', () => {
  it('suggests a uid the API accepts from a name', () => {
    expect(suggestUid('Dr. Émile Zola')).toBe('dr-emile-zola');
    expect(suggestUid('  Ana_María 2 ')).toBe('ana_maria-2');
    expect(suggestUid('Zoë!')).toBe('zoe');
    expect(suggestUid('Al')).toBe(''); // under 3 characters: nothing to suggest
    expect(suggestUid('x'.repeat(80))).toHaveLength(64);
    expect(suggestUid(`${'a'.repeat(63)} b`)).toBe('a'.repeat(63));
  });

  it('names each problem by the API path of its field', () => {
    expect(botDraftProblems(draft({ uid: 'Bad UID!' })).map((p) => p.path)).toEqual(['uid', 'image']);
    expect(botDraftProblems(draft({ uid: 'ab', name: ' ', imageUrl: 'https://x/y.jpg' })).map((p) => p.path)).toEqual(['uid', 'name']);
    expect(botDraftProblems(draft({ source: 'drawn', layers: { mouth_closed: png('a.png') } })).map((p) => p.path)).toEqual(['mouth_open']);
    expect(
      botDraftProblems(
        draft({ source: 'drawn', layers: { mouth_closed: png('a.png'), mouth_open: new File(['x'], 'b.jpg', { type: 'image/jpeg' }) } }),
      ),
    ).toEqual([{ path: 'mouth_open', message: 'b.jpg is not a PNG.' }]);
    expect(botDraftProblems(draft({ image: new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'big.jpg', { type: 'image/jpeg' }) }))).toEqual([
      { path: 'image', message: 'big.jpg is 10.0 MB; at most 10.0 MB.' },
    ]);
    expect(botDraftProblems(draft({ image: new File(['x'], 'face.gif', { type: 'image/gif' }) }))[0]!.message).toBe(
      'face.gif is not a JPEG, PNG or WebP picture.',
    );
    expect(botDraftProblems(draft({ image: new File(['x'], 'face.webp', { type: 'image/webp' }) }))).toEqual([]);
  });

  it('sends a photo bot as multipart with only the given fields', async () => {
    const photo = new File(['jpeg bytes'], 'face.jpg', { type: 'image/jpeg' });
    const form = botFormData(
      draft({ image: photo, voice: 'espeak:es', defaultPosition: 'bottom-left', description: '  A guide ', webhook: 'https://example.com/bots ' }),
    );
    expect([...form.keys()]).toEqual(['name', 'description', 'voice', 'default_position', 'webhook', 'image']);
    expect(form.get('webhook')).toBe('https://example.com/bots');
    expect(form.get('description')).toBe('A guide');
    const sent = form.get('image') as File;
    expect(sent.name).toBe('face.jpg');
    expect(await sent.text()).toBe('jpeg bytes');
    expect([...botFormData(draft({ imageUrl: ' https://example.com/face.jpg ' })).entries()]).toEqual([
      ['name', 'Sol'],
      ['image_url', 'https://example.com/face.jpg'],
    ]);
  });

  it('sends a drawn bot as its PNG layers under the API names', () => {
    const form = botFormData(
      draft({
        source: 'drawn',
        image: png('ignored.png'),
        layers: { mouth_open: png('open.png'), mouth_closed: png('closed.png'), eyes_closed: png('blink.png') },
      }),
    );
    expect([...form.keys()]).toEqual(['name', 'mouth_closed', 'mouth_open', 'eyes_closed']);
    expect((form.get('mouth_open') as File).name).toBe('open.png');
  });

  it('offers every drawn layer the API takes, the mouth shapes optional, each checked as a PNG and sent under its name', () => {
    expect(DRAWN_LAYERS.map((layer) => layer.field)).toEqual([...DRAWN_PARTS]);
    expect(DRAWN_LAYERS.filter((layer) => layer.required).map((layer) => layer.field)).toEqual(['mouth_closed', 'mouth_open']);
    const layers = { mouth_closed: png('closed.png'), mouth_open: png('open.png'), mouth_fv: png('fv.png'), mouth_round: png('oo.png') };
    expect(botDraftProblems(draft({ source: 'drawn', layers }))).toEqual([]);
    expect(
      botDraftProblems(draft({ source: 'drawn', layers: { ...layers, mouth_wide: new File(['x'], 'ee.svg', { type: 'image/svg+xml' }) } })),
    ).toEqual([{ path: 'mouth_wide', message: 'ee.svg is not a PNG.' }]);
    expect([...botFormData(draft({ source: 'drawn', layers })).keys()]).toEqual(['name', 'mouth_closed', 'mouth_open', 'mouth_round', 'mouth_fv']);
  });

  it('shows the same request as curl: files with -F @, text that curl cannot mistake for a file', () => {
    const command = botCurlCommand(
      'http://127.0.0.1:3000',
      draft({ source: 'drawn', name: "@home O'Neil", uid: 'oneil', layers: { mouth_closed: png('closed.png'), mouth_open: png('open.png') } }),
    );
    expect(command.split(' \\\n')).toEqual([
      "curl -s -X PUT 'http://127.0.0.1:3000/v1/bot/oneil'",
      '  -H "Authorization: Bearer $KEY"',
      `  --form-string 'name=@home O'\\''Neil'`,
      "  -F 'mouth_closed=@closed.png'",
      "  -F 'mouth_open=@open.png'",
    ]);
  });

  it('checks a recording before sending: one given, a video, long enough, and the consent ticked, each by its field', () => {
    const webm = (seconds: number | null, type = 'video/webm;codecs=vp8,opus') => ({
      source: 'video' as const,
      video: new File([new Uint8Array(64)], 'webcam-recording.webm', { type }),
      videoSeconds: seconds,
    });
    expect(botDraftProblems(draft({ source: 'video' })).map((p) => p.path)).toEqual(['video', 'consent']);
    const short = botDraftProblems(draft({ ...webm(4.2), consent: true }));
    expect(short).toEqual([{ path: 'video', message: expect.stringContaining('too short: 4.2 s; a recording needs at least 10 s') }]);
    expect(botDraftProblems(draft({ ...webm(301), consent: true }))[0]!.message).toContain('too long');
    expect(botDraftProblems(draft({ ...webm(20, 'video/x-msvideo'), consent: true }))[0]!.message).toContain('is not an MP4, MOV or WebM');
    expect(botDraftProblems(draft({ ...webm(20) }))).toEqual([{ path: 'consent', message: expect.stringContaining('agreed') }]);
    expect(botDraftProblems(draft({ ...webm(20), consent: true }))).toEqual([]);
    // A chosen file whose length the browser could not read goes to the API, which measures it.
    expect(botDraftProblems(draft({ ...webm(null), consent: true }))).toEqual([]);
  });

  it('sends a recording as JSON naming its upload, with the consent, and shows the three steps as curl that a shell runs', () => {
    const recorded = draft({
      source: 'video',
      name: "Ana O'Neil",
      uid: 'ana',
      voice: 'espeak:es',
      video: new File([new Uint8Array(64)], 'webcam-recording.webm', { type: 'video/webm' }),
      videoSeconds: 16,
      consent: true,
    });
    expect(videoBotBody(recorded, 'upl_abc')).toEqual({ name: "Ana O'Neil", voice: 'espeak:es', consent: true, video_upload: 'upl_abc' });
    const lines = botCurlCommand('http://127.0.0.1:3000', recorded).split('\n');
    expect(lines[0]).toContain("curl -s -X POST 'http://127.0.0.1:3000/v1/uploads'");
    expect(lines[1]).toContain('"content_type":"video/webm"');
    expect(lines[2]).toContain("--data-binary @'webcam-recording.webm'");
    // The last request's body, as the shell hands it to curl once the upload's id is known.
    const data = lines.at(-1)!.replace(/^\s+-H 'Content-Type: application\/json' -d /, '');
    const sent = execFileSync('bash', ['-c', `ID=upl_fromshell; printf %s ${data}`], { encoding: 'utf8' });
    expect(JSON.parse(sent)).toEqual({ name: "Ana O'Neil", voice: 'espeak:es', consent: true, video_upload: 'upl_fromshell' });
  });

  it("clears a problem only when its field's value changes: a drawn layer by its name, the position by the API's name", () => {
    const before = draft({ uid: 'so', name: 'So' });
    // The name's keystroke sets the suggested uid again: the name changed, the uid did not (its problem stays).
    expect([...answeredPaths(before, { name: 'Sol', uid: 'so' })]).toEqual(['name']);
    expect([...answeredPaths(before, { name: 'Sol', uid: 'sol' })]).toEqual(['name', 'uid']);
    const mouth = png('mouth.png');
    expect([...answeredPaths(before, { layers: { mouth_open: mouth } })]).toEqual(['mouth_open']);
    expect([...answeredPaths(draft({ layers: { mouth_open: mouth } }), { layers: { mouth_open: mouth, eyes_closed: png('eyes.png') } })]).toEqual([
      'eyes_closed',
    ]);
    expect([...answeredPaths(before, { defaultPosition: 'top-left' })]).toEqual(['default_position']);
    expect([...answeredPaths(before, { video: new File([new Uint8Array(4)], 'me.webm', { type: 'video/webm' }) })]).toEqual([
      'video',
      'video_upload',
      'video_url',
    ]);
    expect([...answeredPaths(before, { consent: false })]).toEqual([]);
  });

  it("says what to do about a failed bot's code, and nothing for a code it does not know", () => {
    expect(whatToDo('mouth_never_closed')).toContain('listening pause');
    expect(whatToDo('face_too_small')).toContain('120 px');
    expect(whatToDo('something_new')).toBeNull();
  });
});
