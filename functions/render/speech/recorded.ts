/**
 * A clip's own recording as its speech: the SpeechEngine the engine asks for a clip with audio_url or
 * audio_upload. The recording is made fit to publish (media/recording.ts) and, with a transcript, aligned to it
 * (alignment.ts): the captions show the transcript's words at their spoken times and the mouth forms the aligned
 * sounds. Without a transcript there are no words, and the mouth's shapes are read from the sound's spectrum
 * (spectral-visemes.ts), opened by its loudness.
 */
import { JobFailedError } from '#domain/errors';
import type { SpeechScript } from '#domain/lexicon';
import { limits } from '#domain/limits';
import type { TranscriptAlignment } from '#domain/recordings';
import { EDGE_SILENCE_SECONDS, prepareRecording, RECORDING_SAMPLE_RATE, RecordingRejectedError } from '#media/recording';
import { readWav } from '#media/wav';
import type { SpeechEngine, SpeechResult } from '../engine/types.ts';
import { alignTranscript, MAX_MODEL_ALIGNMENT_SECONDS, TranscriptMismatchError, transcriptWords } from './alignment.ts';
import { spectralVisemes } from './spectral-visemes.ts';
import { alignBySynthesis } from './synthesis-alignment.ts';

/**
 * What the clip's render tells its video between the recording's steps; either may throw JobFailedError to stop the
 * clip (the video is too long with this recording, or has ended while it was prepared or aligned).
 */
export interface RecordingCheckpoints {
  /** The recording is prepared and lasts `seconds` (trimmed): before it is aligned and drawn. */
  prepared(seconds: number): Promise<void>;
  /** The recording is ready to speak (aligned, or its mouth read from its spectrum): before its frames are drawn. */
  ready(): Promise<void>;
}

export class RecordedSpeech implements SpeechEngine {
  readonly name = 'recording';
  /** The recording's own limit, with the silence its edges are given back when trimmed. */
  readonly maxSeconds: number;
  /** A transcript is read by espeak-ng only to be aligned (4.8 s for 12,000 characters of English here). */
  readonly maxSpokenChars = limits.maxRecordedTranscriptChars;

  /**
   * `alignment`: how a transcript in the clip's voice's language is aligned (none: it cannot be). `deadline` (ms
   * since the epoch): the preparation's ffmpeg runs end before it (the render function's time, less its upload).
   * `recordingSeconds`: the longest recording accepted (a test video's is its whole length: test-mode.ts).
   * `checkpoints`: told of each step's end (the render job checks its video's length and status there).
   */
  constructor(
    private readonly recordingPath: string,
    private readonly alignment: TranscriptAlignment | undefined,
    private readonly deadline?: number,
    private readonly recordingSeconds: number = limits.maxRecordedSpeechSeconds,
    private readonly checkpoints?: RecordingCheckpoints,
  ) {
    this.maxSeconds = recordingSeconds + 2 * EDGE_SILENCE_SECONDS;
  }

  async synthesize(script: SpeechScript, _voice: unknown, workDir: string): Promise<SpeechResult> {
    const prepared = await prepareRecording(this.recordingPath, workDir, this.recordingSeconds, this.deadline).catch((error: unknown) => {
      if (error instanceof RecordingRejectedError) throw new JobFailedError(error.code, `its recording ${error.reason}`);
      throw error;
    });
    await this.checkpoints?.prepared(prepared.durationSeconds);
    const base = { wavPath: prepared.wavPath, sampleRate: RECORDING_SAMPLE_RATE, durationSeconds: prepared.durationSeconds };
    const timed = await this.spoken(prepared.alignmentWavPath, script, workDir);
    await this.checkpoints?.ready();
    return { ...base, ...timed };
  }

  /** With a transcript, its words and sounds aligned to the recording; without one, the mouth's shapes from its spectrum. */
  private async spoken(
    wavPath: string,
    script: SpeechScript,
    workDir: string,
  ): Promise<Pick<SpeechResult, 'words' | 'phonemes' | 'spectralVisemes'>> {
    if (!transcriptWords(script.shown).length) {
      const pcm = readWav(wavPath);
      return { words: [], spectralVisemes: spectralVisemes(pcm.samples, pcm.sampleRate) };
    }
    if (!this.alignment) throw new JobFailedError('audio_transcript_mismatch', "its transcript's language cannot be aligned");
    return aligned(wavPath, script, this.alignment, workDir);
  }
}

async function aligned(wavPath: string, script: SpeechScript, how: TranscriptAlignment, workDir: string) {
  const words = transcriptWords(script.shown);
  try {
    const wav = readWav(wavPath);
    const pcm = wav.samples;
    const alignment =
      how.model && pcm.length <= MAX_MODEL_ALIGNMENT_SECONDS * wav.sampleRate
        ? await alignTranscript(pcm, words, how.model)
        : await alignBySynthesis(pcm, script, words, how.espeakVoice, workDir);
    return {
      words: words.map((w, i) => ({ start: w.start, end: w.end, ...alignment.words[i]! })),
      phonemes: alignment.phonemes,
    };
  } catch (error) {
    if (error instanceof TranscriptMismatchError)
      throw new JobFailedError(
        'audio_transcript_mismatch',
        'its text is not what its recording says: give the transcript of the recording, word for word',
      );
    throw error;
  }
}
