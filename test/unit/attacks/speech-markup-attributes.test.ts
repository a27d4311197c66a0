/**
 * A repeated markup attribute (`<break time="6s" time="1s"/>`) was accepted, the last one silently winning here
 * while XML (and Polly's SSML) refuses the tag: what the caller checked is not what an engine would do.
 */
import { describe, expect, it } from 'vitest';
import { parseCreateVideo } from '#domain/create-request';
import { InvalidRequestError } from '#domain/errors';

const problemsOf = (text: string) => {
  try {
    parseCreateVideo({ webhook: 'https://example.com/h', clips: [{ bot_uid: 'bot_ava', text }] });
  } catch (error) {
    if (error instanceof InvalidRequestError) return error.problems;
    throw error;
  }
  return [];
};

describe('a repeated markup attribute', () => {
  it.each([
    ['Wait <break time="6s" time="1s"/> now.', 'time', 'break'],
    ["Say <say-as interpret-as='characters' interpret-as='characters'>AB</say-as>.", 'interpret-as', 'say-as'],
    ['It is <emphasis level="strong" level="reduced">big</emphasis>.', 'level', 'emphasis'],
  ])('is a 400 at the clip text naming it: %s', (text, attribute, tag) => {
    expect(problemsOf(text)).toEqual([
      { path: 'clips[0].text', message: expect.stringContaining(`attribute ${attribute} is given twice on <${tag}>`) },
    ]);
  });

  it('leaves a single attribute as it was', () => {
    expect(problemsOf('Wait <break time="1s"/> now.')).toEqual([]);
  });
});
