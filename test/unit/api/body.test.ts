/**
 * A multipart body over busboy's limits (fields, files, parts) is a 400 naming the limit: busboy drops the
 * parts over a limit, and a request read without them would silently be another request.
 */
import { describe, expect, it } from 'vitest';
import { readFields, readFieldsAndFiles } from '#commons/body';
import { BadRequestError } from '#commons/errors';
import type { HttpRequest } from '#commons/http';

/** A multipart body of `fields` text fields and `files` file parts. */
async function multipartRequest(fields: number, files: number): Promise<HttpRequest> {
  const form = new FormData();
  for (let i = 0; i < fields; i++) form.append(`field_${i}`, `value ${i}`);
  for (let i = 0; i < files; i++) form.append(`file_${i}`, new Blob([`bytes ${i}`], { type: 'image/png' }), `file_${i}.png`);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const body = Buffer.from(await request.arrayBuffer());
  return {
    method: 'POST',
    rawPath: '/',
    pathParams: {},
    query: {},
    headers: { 'content-type': request.headers.get('content-type')! },
    body,
    requestId: 'req_1',
    baseUrl: 'http://localhost',
  };
}

async function refusal(promise: Promise<unknown>): Promise<BadRequestError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestError);
    return error as BadRequestError;
  }
  throw new Error('expected a 400');
}

/** As many file fields as a bot's PUT has (image and the seven drawn layers). */
const FILE_FIELDS = ['file_0', 'file_1', 'file_2', 'file_3', 'file_4', 'file_5', 'file_6', 'file_7'];
const readBoth = async (request: HttpRequest) =>
  readFieldsAndFiles(request, { maxBytes: 1_000_000, maxFileBytes: 1_000_000, fileFields: FILE_FIELDS });

describe('readFields: a multipart body over its limits', () => {
  it('reads 50 fields and 5 file parts, every one of them', async () => {
    expect(Object.keys(await readFields(await multipartRequest(50, 5), 1_000_000))).toHaveLength(55);
  });

  it('refuses a 51st field with a 400 naming the limit', async () => {
    const error = await refusal(readFields(await multipartRequest(51, 0), 1_000_000));
    expect(error).toMatchObject({ status: 400, code: 'invalid_request', message: 'Too many fields in the multipart body: at most 50.' });
  });

  it('refuses a 6th file part with a 400 naming the limit', async () => {
    const error = await refusal(readFields(await multipartRequest(0, 6), 1_000_000));
    expect(error).toMatchObject({ status: 400, message: 'Too many file parts in the multipart body: at most 5.' });
  });
});

describe('readFieldsAndFiles: a multipart body over its limits', () => {
  it('reads 50 fields and a file per file field, every one of them', async () => {
    const { fields, files } = await readBoth(await multipartRequest(50, 8));
    expect([Object.keys(fields).length, Object.keys(files).length]).toEqual([50, 8]);
  });

  it('refuses a 51st field and a file more than its file fields with a 400 naming the limit', async () => {
    expect((await refusal(readBoth(await multipartRequest(51, 1)))).message).toBe('Too many fields in the multipart body: at most 50.');
    expect((await refusal(readBoth(await multipartRequest(1, 9)))).message).toBe('Too many file parts in the multipart body: at most 8.');
    const fewFields = readFieldsAndFiles(await multipartRequest(1, 6), { maxBytes: 1_000_000, maxFileBytes: 1_000_000, fileFields: ['file_0'] });
    expect((await refusal(fewFields)).message).toBe('Too many file parts in the multipart body: at most 5.');
  });
});
