/** How a recording's transcript is aligned in the clip's voice's language (domain/recordings.ts transcriptAlignmentOf). */
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_LANGUAGE_NAMES, transcriptAlignmentOf } from '#domain/recordings';
import { findVoice } from '#domain/voices';

const voice = (id: string) => findVoice(id, { polly: true });

describe('transcriptAlignmentOf', () => {
  it("aligns English by the acoustic model, whatever the engine of the voice, with espeak-ng's voice of it for long recordings", () => {
    expect(transcriptAlignmentOf(voice('espeak:en-us+f3'))).toEqual({ model: 'en', espeakVoice: 'espeak:en-us+f3' });
    expect(transcriptAlignmentOf(voice('polly:Joanna'))).toMatchObject({ model: 'en', espeakVoice: expect.stringMatching(/^espeak:en/) });
  });

  it("aligns French, German, Spanish, Danish and Finnish through espeak-ng: the clip's own espeak voice, or a Polly voice's stand-in of its language", () => {
    expect(transcriptAlignmentOf(voice('espeak:da+m3'))).toEqual({ espeakVoice: 'espeak:da+m3' });
    expect(transcriptAlignmentOf(voice('espeak:de+m3'))).toEqual({ espeakVoice: 'espeak:de+m3' });
    expect(transcriptAlignmentOf(voice('polly:Hans'))).toMatchObject({ espeakVoice: expect.stringMatching(/^espeak:de/) });
    expect(transcriptAlignmentOf(voice('espeak:es+m3'))).toEqual({ espeakVoice: 'espeak:es+m3' });
    expect(transcriptAlignmentOf(voice('polly:Lucia'))).toMatchObject({ espeakVoice: expect.stringMatching(/^espeak:es/) });
    expect(transcriptAlignmentOf(voice('espeak:fi+f3'))).toEqual({ espeakVoice: 'espeak:fi+f3' });
    expect(transcriptAlignmentOf(voice('polly:Lea'))).toMatchObject({ espeakVoice: expect.stringMatching(/^espeak:fr/) });
    expect(transcriptAlignmentOf(voice('polly:Naja'))).toMatchObject({ espeakVoice: expect.stringMatching(/^espeak:da/) });
    expect(transcriptAlignmentOf(voice('polly:Suvi'))).toMatchObject({ espeakVoice: expect.stringMatching(/^espeak:fi/) });
  });

  it('has no way for a language its refusal threshold was not measured on, even one espeak-ng speaks', () => {
    expect(transcriptAlignmentOf(voice('espeak:sv+m3'))).toBeUndefined();
    expect(transcriptAlignmentOf(voice('espeak:it+m3'))).toBeUndefined();
    expect(transcriptAlignmentOf(voice('polly:Bianca'))).toBeUndefined();
    expect(TRANSCRIPT_LANGUAGE_NAMES).toBe('English, French, German, Spanish, Danish, Finnish');
  });

  it('has no way for a voice it does not know', () => {
    expect(transcriptAlignmentOf(undefined)).toBeUndefined();
  });
});
