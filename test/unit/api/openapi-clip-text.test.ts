/**
 * The OpenAPI document states the clip text's limits the API enforces: 2,000 characters for a synthesised clip's
 * text (required there), 12,000 for a recording's transcript. Each request below is judged by the document (Ajv) and
 * by the create request's parser, and both must agree, so the generated SDK and a caller's validator refuse what
 * the service refuses.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseCreateVideo } from '#domain/create-request';
import { limits } from '#domain/limits';
import { openApiDocument } from '#functions/api/openapi.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'openapi', ...openApiDocument('http://svc') });
const validate = ajv.getSchema('openapi#/components/schemas/CreateVideoRequest')!;

const words = (chars: number) => 'word '.repeat(Math.ceil(chars / 5)).slice(0, chars - 1) + 'x';
const request = (clip: Record<string, unknown>) => ({ webhook: 'https://e.com/hook', clips: [{ bot_uid: 'bot_ava', ...clip }] });
const byDocument = (body: unknown) => validate(body) === true;
const byService = (body: Record<string, unknown>) => {
  try {
    parseCreateVideo(body);
    return true;
  } catch {
    return false;
  }
};

describe("the OpenAPI document's clip text limits", () => {
  it.each([
    ['synthesised text at its limit', { text: words(limits.maxTextChars) }, true],
    ['synthesised text a character over', { text: words(limits.maxTextChars + 1) }, false],
    ['a synthesised clip without text', {}, false],
    ["a recording's transcript at its limit", { audio_url: 'https://e.com/me.wav', text: words(limits.maxRecordedTranscriptChars) }, true],
    ["a recording's transcript a character over", { audio_url: 'https://e.com/me.wav', text: words(limits.maxRecordedTranscriptChars + 1) }, false],
    ['an upload with a long transcript', { audio_upload: 'upl_AAAAAAAAAAAAAAAA', text: words(limits.maxTextChars + 1) }, true],
    ['a recording without text', { audio_url: 'https://e.com/me.wav' }, true],
  ])('%s: the document and the service agree', (_what, clip, accepted) => {
    const body = request(clip);
    expect(byService(body)).toBe(accepted);
    expect(byDocument(body)).toBe(accepted);
  });
});
