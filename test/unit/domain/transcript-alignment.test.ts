/** How a recording's transcript is aligned in the clip's voice's language (domain/recordings.ts transcriptAlignmentOf). */
import { describe, expect, it } from 'vitest';
import { transcriptAlignmentOf } from '#domain/recordings';
import { findVoice } from '#domain/voices';

const voice = (id: string) => findVoice(id, { polly: true });

describe('transcriptAlignmentOf', () => {
  it('aligns English by the acoustic model, whatever the engine of the voice', () => {
    expect(transcriptAlignmentOf(voice('espeak:en-us+f3'))).toEqual({ model: 'en' });
    expect(transcriptAlignmentOf(voice('polly:Joanna'))).toEqual({ model: 'en' });
  });

  it("aligns other languages through espeak-ng: the clip's own espeak voice, or a Polly voice's stand-in of its language", () => {
    expect(transcriptAlignmentOf(voice('espeak:de+m3'))).toEqual({ espeakVoice: 'espeak:de+m3' });
    const spanish = transcriptAlignmentOf(voice('polly:Lucia'));
    expect(spanish).toMatchObject({ espeakVoice: expect.stringMatching(/^espeak:es/) });
    expect(transcriptAlignmentOf(voice('polly:Hans'))).toMatchObject({ espeakVoice: expect.stringMatching(/^espeak:de/) });
  });

  it('has no way for a voice it does not know', () => {
    expect(transcriptAlignmentOf(undefined)).toBeUndefined();
  });
});
