/** The voice catalog (domain/voices.ts) and GET /v1/voices, with and without Polly. */
import { readFileSync } from 'node:fs';
import { DescribeVoicesCommand, PollyClient, VoiceId } from '@aws-sdk/client-polly';
import type { APIGatewayProxyResult, Handler } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it, vi } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { POLLY_VOICES } from '#domain/polly-voices';
import { type BotVoice, botVoiceOf, findVoice, listVoices, type Voice, voicesOfLanguage, voiceToSpeak } from '#domain/voices';
import { describeAllVoices, pollyVoiceRows, withRows } from '#infra/voices/polly.ts';
import { lambdaContext, restEvent } from '../../support/events.ts';

const espeakOnly = listVoices({ polly: false });
const withPolly = listVoices({ polly: true });

describe('the catalog', () => {
  it('offers every espeak-ng language as a female and a male voice (100+ languages), English in four more variants', () => {
    const languages = new Set(espeakOnly.map((v) => v.id.replace(/\+[fm]\d$/, '')));
    const english = [...languages].filter((l) => l.startsWith('espeak:en-'));
    expect(languages.size).toBeGreaterThanOrEqual(100);
    expect(english).toContain('espeak:en-us');
    expect(english).toContain('espeak:en-gb');
    expect(espeakOnly).toHaveLength(languages.size * 2 + english.length * 4);
    for (const language of languages) {
      expect(findVoice(`${language}+f3`, { polly: false })?.gender).toBe('female');
      expect(findVoice(`${language}+m3`, { polly: false })?.gender).toBe('male');
    }
    // The variants an offline recogniser understands best (docs/bots-and-voices.md): English only, where they were measured.
    for (const language of english)
      for (const [variant, gender] of [
        ['f2', 'female'],
        ['f5', 'female'],
        ['m5', 'male'],
        ['m6', 'male'],
      ])
        expect(findVoice(`${language}+${variant}`, { polly: false })?.gender, `${language}+${variant}`).toBe(gender);
    expect(findVoice('espeak:es+f5', { polly: false })).toBeUndefined();
    expect(espeakOnly.every((v) => v.engine === 'espeak')).toBe(true);
  });

  it("adds Amazon Polly's voices only where the deployment uses Polly, each a voice id of the SDK", () => {
    const polly = withPolly.filter((v) => v.engine === 'polly');
    expect(polly).toHaveLength(POLLY_VOICES.length);
    expect(withPolly).toHaveLength(espeakOnly.length + polly.length);
    const sdkIds = new Set<string>(Object.values(VoiceId));
    for (const voice of polly) expect(sdkIds.has(voice.id.slice('polly:'.length)), voice.id).toBe(true);
    expect(POLLY_VOICES.filter((v) => v.neural).length).toBeGreaterThanOrEqual(60);
  });

  it('has unique ids, and canonical BCP 47 tags, English names and a gender on every voice', () => {
    expect(new Set(withPolly.map((v) => v.id)).size).toBe(withPolly.length);
    for (const voice of withPolly) {
      expect(voice.id).toMatch(/^(espeak:[a-z0-9-]+\+[fm]3|espeak:en-[a-z0-9-]+\+(f2|f5|m5|m6)|polly:[A-Z][a-z]+)$/);
      expect(Intl.getCanonicalLocales(voice.language)[0], voice.id).toBe(voice.language);
      expect(voice.languageName, voice.id).toMatch(/^[A-Z][\p{L} ()',.-]+$/u);
      expect(['female', 'male'], voice.id).toContain(voice.gender);
    }
  });

  it('finds a voice only where the deployment speaks it', () => {
    expect(findVoice('espeak:es+f3', { polly: false })).toEqual({
      id: 'espeak:es+f3',
      engine: 'espeak',
      language: 'es',
      languageName: 'Spanish (Spain)',
      gender: 'female',
    });
    expect(findVoice('polly:Lucia', { polly: true })).toEqual({
      id: 'polly:Lucia',
      engine: 'polly',
      language: 'es-ES',
      languageName: 'European Spanish',
      gender: 'female',
    });
    expect(findVoice('polly:Lucia', { polly: false })).toBeUndefined();
    for (const unknown of ['espeak:es', 'espeak:es+f4', 'polly:lucia', 'Lucia', '', 'espeak:xx+f3'])
      expect(findVoice(unknown, { polly: true }), unknown).toBeUndefined();
  });

  it('names voices of the catalog for every built-in bot: an espeak-ng voice and a neural Polly voice', () => {
    for (const bot of BUILT_IN_BOTS) {
      expect(findVoice(bot.voice.espeak, { polly: false })?.engine, bot.uid).toBe('espeak');
      expect(findVoice(bot.voice.polly!, { polly: true })?.engine, bot.uid).toBe('polly');
      expect(POLLY_VOICES.find((v) => `polly:${v.voiceId}` === bot.voice.polly)?.neural, bot.uid).toBe(true);
    }
  });

  it('selects a language with its regional forms', () => {
    const spanish = voicesOfLanguage(withPolly, 'es').map((v) => v.id);
    expect(spanish).toEqual(expect.arrayContaining(['espeak:es+f3', 'espeak:es-419+m3', 'polly:Lucia', 'polly:Mia', 'polly:Lupe']));
    expect(spanish.every((id) => findVoice(id, { polly: true })!.language.startsWith('es'))).toBe(true);
    expect(
      voicesOfLanguage(withPolly, 'es-MX')
        .map((v) => v.id)
        .sort(),
    ).toEqual(['polly:Andres', 'polly:Mia']);
  });

  it("makes an account bot's voice from one id: a Polly voice gets an espeak-ng voice of its language and gender", () => {
    expect(botVoiceOf(findVoice('espeak:de+m3', { polly: false })!)).toEqual({ espeak: 'espeak:de+m3' });
    expect(botVoiceOf(findVoice('polly:Vitoria', { polly: true })!)).toEqual({ espeak: 'espeak:pt-br+f3', polly: 'polly:Vitoria' });
    expect(botVoiceOf(findVoice('polly:Hala', { polly: true })!)).toEqual({ espeak: 'espeak:ar+f3', polly: 'polly:Hala' });
  });
});

describe("the Polly catalog's refresh from DescribeVoices (npm run voices:polly)", () => {
  it('reads every page and keeps the voices vidbot speaks, neural where they have it, in BCP 47', async () => {
    const polly = mockClient(PollyClient);
    polly.on(DescribeVoicesCommand, { NextToken: undefined }).resolves({
      Voices: [
        { Id: 'Lucia', Gender: 'Female', LanguageCode: 'es-ES', LanguageName: 'Castilian Spanish', SupportedEngines: ['neural', 'standard'] },
        { Id: 'Zeina', Gender: 'Female', LanguageCode: 'arb', LanguageName: 'Arabic', SupportedEngines: ['standard'] },
        { Id: 'Ambre', Gender: 'Female', LanguageCode: 'fr-FR', LanguageName: 'French', SupportedEngines: ['generative'] },
      ],
      NextToken: 'page2',
    });
    polly.on(DescribeVoicesCommand, { NextToken: 'page2' }).resolves({
      Voices: [{ Id: 'Geraint', Gender: 'Male', LanguageCode: 'en-GB-WLS', LanguageName: 'Welsh English', SupportedEngines: ['standard'] }],
    });
    const rows = pollyVoiceRows(await describeAllVoices(new PollyClient({ region: 'eu-west-1' })));
    expect(rows).toEqual([
      { voiceId: 'Zeina', language: 'ar', languageName: 'Arabic', gender: 'female', neural: false },
      { voiceId: 'Geraint', language: 'en-GB', languageName: 'Welsh English', gender: 'male', neural: false },
      { voiceId: 'Lucia', language: 'es-ES', languageName: 'European Spanish', gender: 'female', neural: true },
    ]);
    polly.restore();
  });

  it("writes the committed file exactly as it is: the rows are in the writer's form and order", () => {
    const file = readFileSync(new URL('../../../functions/domain/polly-voices.ts', import.meta.url), 'utf8');
    expect(withRows(file, POLLY_VOICES)).toBe(file);
  });
});

describe('GET /v1/voices', () => {
  type ApiHandler = Handler<ReturnType<typeof restEvent>, APIGatewayProxyResult>;

  /** The handler as a deployment with this SPEECH_ENGINE loads it (config is read at cold start). */
  async function voicesHandler(speechEngine: string | undefined): Promise<ApiHandler> {
    vi.resetModules();
    vi.stubEnv('SPEECH_ENGINE', speechEngine);
    try {
      return (await import('#functions/api/voices.ts')).handler as ApiHandler;
    } finally {
      vi.unstubAllEnvs();
    }
  }

  async function get(handler: ApiHandler, query?: Record<string, string>) {
    const result = (await handler(
      restEvent({ method: 'GET', path: '/v1/voices', query }),
      lambdaContext(),
      () => undefined,
    )) as APIGatewayProxyResult;
    return { status: result.statusCode, json: JSON.parse(result.body) };
  }

  const publicShape = (v: Voice) => ({ id: v.id, language: v.language, language_name: v.languageName, gender: v.gender, engine: v.engine });

  it("lists espeak-ng's voices locally (no SPEECH_ENGINE), in the public shape", async () => {
    const response = await get(await voicesHandler(undefined));
    expect(response.status).toBe(200);
    expect(response.json.voices).toEqual(espeakOnly.map(publicShape));
    expect(response.json.voices).toContainEqual({
      id: 'espeak:ja+f3',
      language: 'ja',
      language_name: 'Japanese',
      gender: 'female',
      engine: 'espeak',
    });
  });

  it("lists Polly's voices too where the deployment uses Polly, and filters by language", async () => {
    const handler = await voicesHandler('polly');
    const all = await get(handler);
    expect(all.json.voices).toHaveLength(withPolly.length);
    const spanish = await get(handler, { language: 'ES' });
    expect(spanish.json.voices.map((v: { id: string }) => v.id)).toEqual(voicesOfLanguage(withPolly, 'es').map((v) => v.id));
    expect(spanish.json.voices.some((v: { engine: string }) => v.engine === 'polly')).toBe(true);
    const mandarin = await get(handler, { language: 'cmn' });
    expect(mandarin.json.voices.map((v: { id: string }) => v.id)).toEqual(expect.arrayContaining(['espeak:cmn+f3', 'polly:Zhiyu']));
  });

  it('answers 400 for a language that is no BCP 47 tag, and an empty list for one nobody speaks', async () => {
    const handler = await voicesHandler('espeak');
    const bad = await get(handler, { language: 'not a tag!' });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: 'invalid_request', details: [{ path: 'language' }] });
    expect((await get(handler, { language: 'xh' })).json).toEqual({ voices: [] });
  });

  it('refuses a deployment whose SPEECH_ENGINE is neither espeak nor polly, at cold start', async () => {
    await expect(voicesHandler('festival')).rejects.toThrow(/SPEECH_ENGINE must be espeak or polly/);
  });
});

describe('voiceToSpeak: the voice a stored clip is spoken with', () => {
  const bot: BotVoice = { espeak: 'espeak:en-us+f3', polly: 'polly:Joanna', espeakRate: 160, espeakPitch: 40 };

  it("speaks a clip's own voice while the catalog has it", () => {
    expect(voiceToSpeak(bot, 'espeak:es+m3', { polly: false })).toEqual({ id: 'espeak:es+m3' });
    expect(voiceToSpeak(bot, 'polly:Lucia', { polly: true })).toEqual({ id: 'polly:Lucia' });
  });

  it("falls back to the bot's own voice when the clip's voice has left the catalog", () => {
    // A clip stored with a voice the catalog no longer lists: the engine would refuse it on every retry.
    expect(findVoice('espeak:gone+f3', { polly: true })).toBeUndefined();
    expect(voiceToSpeak(bot, 'espeak:gone+f3', { polly: false })).toEqual({ id: 'espeak:en-us+f3', rate: 160, pitch: 40 });
    expect(voiceToSpeak(bot, 'polly:Gone', { polly: true })).toEqual({ id: 'polly:Joanna' });
  });
});
