import busboy from 'busboy';
import { RESERVED_KEYS } from '#domain/create-request';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from './errors.ts';
import type { HttpRequest } from './http.ts';

const ACCEPTED_BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * How many parts a multipart body may have; busboy drops what is over, so each excess is refused (400). busboy
 * emits partsLimit when the count *reaches* `parts` (a body of exactly that many would be refused), so `parts` is
 * one more than the most a valid body has.
 */
const MAX_FIELDS = 50;
/** File parts a body may have; a body that carries files may have one per file field where that is more. */
const MAX_FILES = 5;
const multipartLimits = (files: number) => ({ fields: MAX_FIELDS, files, parts: MAX_FIELDS + files + 1 });

/** A body over a limit is refused, not read with its extra parts silently left out. */
function refuseExtraParts(parser: busboy.Busboy, fail: (error: unknown) => void, files: number) {
  parser.on('fieldsLimit', () => fail(new BadRequestError(`Too many fields in the multipart body: at most ${MAX_FIELDS}.`)));
  parser.on('filesLimit', () => fail(new BadRequestError(`Too many file parts in the multipart body: at most ${files}.`)));
  parser.on('partsLimit', () => fail(new BadRequestError(`Too many parts in the multipart body: at most ${MAX_FIELDS + files}.`)));
}

function decodeUtf8(bytes: Uint8Array, what: string): string {
  const text = utf8OrUndefined(bytes);
  if (text === undefined) throw new BadRequestError(`${what} is not valid UTF-8.`);
  return text;
}

function utf8OrUndefined(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function checkKey(key: string) {
  if (RESERVED_KEYS.has(key)) throw new BadRequestError(`Field name "${key}" is not allowed.`, [{ path: key, message: 'reserved name' }]);
}

/** JSON.parse that refuses prototype-related keys at any depth. */
function parseJsonSafely(text: string, what: string): unknown {
  try {
    return JSON.parse(text, (key, value) => {
      checkKey(key);
      return value;
    });
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
    throw new BadRequestError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * The request body as a plain record of fields, whatever the encoding: JSON object, URL-encoded form or
 * multipart form (curl -F). Form values stay strings; JSON values keep their types.
 */
export async function readFields(request: HttpRequest, maxBytes: number): Promise<Record<string, unknown>> {
  if (request.body.length > maxBytes) throw new PayloadTooLargeError(maxBytes);
  const contentType = request.headers['content-type'];
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (!mediaType || !ACCEPTED_BODY_TYPES.includes(mediaType)) {
    if (!mediaType && request.body.length === 0) throw new BadRequestError('The request has no body; send the fields as JSON or a form.');
    throw new UnsupportedMediaTypeError(contentType, ACCEPTED_BODY_TYPES);
  }
  const charset = /;\s*charset="?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8')
    throw new UnsupportedMediaTypeError(
      contentType,
      ACCEPTED_BODY_TYPES.map((t) => `${t} (UTF-8)`),
    );
  // Every field we accept is text, so the whole body must be UTF-8 (busboy would silently replace bad bytes).
  const text = decodeUtf8(request.body, 'The body');
  if (mediaType === 'application/json') {
    const value = parseJsonSafely(text, 'The body');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BadRequestError('The JSON body must be an object.');
    return value as Record<string, unknown>;
  }
  const fields: Record<string, unknown> = Object.create(null);
  const add = (name: string, value: string) => {
    checkKey(name);
    if (name in fields) throw new BadRequestError(`Field "${name}" is given more than once.`, [{ path: name, message: 'duplicate field' }]);
    fields[name] = value;
  };
  if (mediaType === 'application/x-www-form-urlencoded') {
    for (const [name, value] of parseUrlEncoded(text)) add(name, value);
    return { ...fields };
  }
  await readMultipart(request.body, contentType!, maxBytes, add);
  return { ...fields };
}

/**
 * URL-encoded pairs as URLSearchParams reads them ('+' is a space, a '%' without two hex digits stays), except
 * that percent-encoded bytes must be valid UTF-8: URLSearchParams would silently turn them into U+FFFD.
 */
function parseUrlEncoded(text: string): [string, string][] {
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' ').replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
    } catch {
      throw new BadRequestError('The form body is not valid UTF-8 once percent-decoded.');
    }
  };
  return text
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? [decode(pair), ''] : [decode(pair.slice(0, eq)), decode(pair.slice(eq + 1))];
    });
}

function readMultipart(body: Buffer, contentType: string, maxBytes: number, add: (name: string, value: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { fieldSize: maxBytes, fileSize: maxBytes, ...multipartLimits(MAX_FILES) },
      });
    } catch (error) {
      reject(new BadRequestError(`Malformed multipart body: ${(error as Error).message}`));
      return;
    }
    const fail = (error: unknown) =>
      reject(error instanceof BadRequestError ? error : new BadRequestError(`Malformed multipart body: ${(error as Error).message}`));
    parser.on('field', (name, value, info) => {
      try {
        if (info.valueTruncated) throw new PayloadTooLargeError(maxBytes);
        add(name, value);
      } catch (error) {
        reject(error);
      }
    });
    // `curl -F clips=@clips.json` sends a field as a file part: read it as that field's text.
    parser.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => reject(new PayloadTooLargeError(maxBytes)));
      // A body cut off inside a file part errs on the part's stream: unheard, the error would end the process.
      stream.on('error', fail);
      stream.on('close', () => {
        try {
          add(name, decodeUtf8(Buffer.concat(chunks), `Field "${name}"`));
        } catch (error) {
          reject(error);
        }
      });
    });
    refuseExtraParts(parser, fail, MAX_FILES);
    parser.on('error', fail);
    parser.on('close', () => resolve());
    parser.end(body);
  });
}

/** A file part of a multipart body. */
export interface FilePart {
  bytes: Buffer;
  /** As the caller declared it; not trusted (the bytes are checked). */
  contentType: string;
}

/**
 * A body that may carry files (PUT /v1/bot/{uid}): JSON or a URL-encoded form as readFields reads them, or a
 * multipart form whose parts named in `fileFields` are kept as bytes (each at most `maxFileBytes`, 413 above)
 * while every other part is a UTF-8 text field, as readFields reads it (a file part of another name that is not
 * UTF-8 is kept as a file: the caller's parser names the field). It may have a file part per file field.
 */
export async function readFieldsAndFiles(
  request: HttpRequest,
  options: { maxBytes: number; maxFileBytes: number; fileFields: readonly string[]; tooLargeHint?: string },
): Promise<{ fields: Record<string, unknown>; files: Record<string, FilePart> }> {
  if (request.body.length > options.maxBytes) throw new PayloadTooLargeError(options.maxBytes, options.tooLargeHint);
  const contentType = request.headers['content-type'];
  if (contentType?.split(';')[0]?.trim().toLowerCase() !== 'multipart/form-data')
    return { fields: await readFields(request, options.maxBytes), files: {} };
  const fields: Record<string, unknown> = Object.create(null);
  const files: Record<string, FilePart> = Object.create(null);
  const maxFiles = Math.max(MAX_FILES, options.fileFields.length);
  const taken = (name: string) => {
    checkKey(name);
    if (name in fields || name in files)
      throw new BadRequestError(`Field "${name}" is given more than once.`, [{ path: name, message: 'duplicate field' }]);
  };
  await new Promise<void>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // latin1 keeps a text field's bytes as they came, so that invalid UTF-8 is refused below, not replaced.
      parser = busboy({
        headers: { 'content-type': contentType },
        defCharset: 'latin1',
        limits: { fieldSize: options.maxBytes, fileSize: options.maxFileBytes, ...multipartLimits(maxFiles) },
      });
    } catch (error) {
      reject(new BadRequestError(`Malformed multipart body: ${(error as Error).message}`));
      return;
    }
    const fail = (error: unknown) =>
      reject(
        error instanceof BadRequestError || error instanceof PayloadTooLargeError
          ? error
          : new BadRequestError(`Malformed multipart body: ${(error as Error).message}`),
      );
    parser.on('field', (name, value, info) => {
      try {
        if (info.valueTruncated) throw new PayloadTooLargeError(options.maxBytes);
        taken(name);
        fields[name] = decodeUtf8(Buffer.from(value, 'latin1'), `Field "${name}"`);
      } catch (error) {
        fail(error);
      }
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(new PayloadTooLargeError(options.maxFileBytes)));
      stream.on('error', fail);
      stream.on('close', () => {
        try {
          taken(name);
          const bytes = Buffer.concat(chunks);
          // A file under another name is a text field when it is UTF-8 (`-F description=@about.txt`); one that is
          // not is kept as a file, so the route names it as the field it does not take, not as bad text.
          const text = options.fileFields.includes(name) ? undefined : utf8OrUndefined(bytes);
          if (text === undefined) files[name] = { bytes, contentType: info.mimeType };
          else fields[name] = text;
        } catch (error) {
          fail(error);
        }
      });
    });
    refuseExtraParts(parser, fail, maxFiles);
    parser.on('error', fail);
    parser.on('close', () => resolve());
    parser.end(request.body);
  });
  return { fields: { ...fields }, files: { ...files } };
}
