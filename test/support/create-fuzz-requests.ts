/**
 * The invalid create requests fuzzed through the API (test/e2e/reliability/create-fuzz.test.ts), by category:
 * random and malformed bodies, wrong content types, huge fields, invalid UTF-8, prototype keys at any depth, wrong
 * clip types. Every one is invalid by construction; each names what it must get, an exact status or any 4xx.
 */
import fc from 'fast-check';

const MAX_BODY = 256 * 1024;
const ACCEPTED = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];
const FORBIDDEN = ['__proto__', 'constructor', 'prototype'] as const;
const CREATE_FIELDS = ['webhook', 'process_done_webhook', 'create_video', 'clips'];
const CLIP_FIELDS = [
  'bot_uid',
  'text',
  'bot_position',
  'remove_bot_background',
  'background',
  'background_volume',
  'transitions',
  'reusable_clip',
  'clip_name',
  'clip_uid',
];

/** A request to send, and what it must get: an exact status or any 4xx. */
export interface FuzzRequest {
  category: string;
  path: string;
  contentType?: string;
  body: Buffer;
  expected: number | '4xx';
}

const WEBHOOK = 'http://127.0.0.1:9/hook';
const VALID_CLIP = { bot_uid: 'bot_ava', text: 'Hi.' };
const VALID = { webhook: WEBHOOK, create_video: false, clips: [VALID_CLIP] };

const path = fc.constantFrom('/v1/bot', '/v1/create_video');
const json = (value: unknown, category: string, expected: FuzzRequest['expected'] = 400) =>
  path.map((p): FuzzRequest => ({ category, path: p, contentType: 'application/json', body: Buffer.from(JSON.stringify(value)), expected }));

const nonString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);
const extraKey = (known: string[]) =>
  fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !known.includes(k) && !(FORBIDDEN as readonly string[]).includes(k));

/** A clip that fails validation, whatever else is in the request. */
const badClip = fc.oneof(
  nonString.map((bot_uid) => ({ ...VALID_CLIP, bot_uid })),
  fc.constantFrom('bot_nobody', '', '   ').map((bot_uid) => ({ ...VALID_CLIP, bot_uid })),
  fc
    .oneof(
      nonString,
      fc.constantFrom('', '   '),
      fc.integer({ min: 2001, max: 2100 }).map((n) => 'x'.repeat(n)),
    )
    .map((text) => ({ ...VALID_CLIP, text })),
  fc
    .oneof(fc.integer(), fc.constantFrom('middle', 'top', 'left-top', 'bottom right', '', null))
    .map((bot_position) => ({ ...VALID_CLIP, bot_position })),
  fc
    .oneof(fc.integer({ min: 2 }), fc.constantFrom('yes', 'no', '', null, 'ja'))
    .map((remove_bot_background) => ({ ...VALID_CLIP, remove_bot_background })),
  fc
    .oneof(fc.integer(), fc.constantFrom('ftp://x/y.mp4', 'not a url', '//x.mp4', 'javascript:alert(1)', 'http://u:p@x/y.mp4', null))
    .map((background) => ({ ...VALID_CLIP, background })),
  fc
    .oneof(
      fc.double({ min: 1.0001, max: 1e9, noNaN: true }),
      fc.double({ min: -1e9, max: -0.0001, noNaN: true }),
      fc.constantFrom('loud', '', '1e', '-1', null, true),
    )
    .map((background_volume) => ({ ...VALID_CLIP, background_volume })),
  fc
    .oneof(
      fc.constantFrom('explode', 'fade_in fade_in', 'fade_out fade_out', 'fade_in zoom_in', null),
      fc.integer(),
      fc.array(fc.constant('fade_in'), { minLength: 3, maxLength: 4 }),
    )
    .map((transitions) => ({ ...VALID_CLIP, transitions })),
  fc.oneof(fc.integer({ min: 2 }), fc.constantFrom('maybe', null)).map((reusable_clip) => ({ ...VALID_CLIP, reusable_clip })),
  fc.oneof(fc.integer(), fc.boolean(), fc.constant('n'.repeat(101))).map((clip_name) => ({ ...VALID_CLIP, clip_name })),
  fc.tuple(extraKey(CLIP_FIELDS), fc.jsonValue({ maxDepth: 2 })).map(([key, value]) => ({ ...VALID_CLIP, [key]: value })),
  fc.constantFrom({ text: 'Hi.' }, { bot_uid: 'bot_ava' }, {}, { clip_uid: '' }, { clip_uid: 'clip_missing' }),
);

/** A clips value that fails validation: wrong types, wrong counts, or at least one bad clip among good ones. */
const badClips = fc.oneof(
  fc.oneof(fc.integer(), fc.boolean(), fc.constant(''), fc.constant([]), fc.constant('   '), fc.constant(null)),
  fc.string({ maxLength: 40 }), // any string: not JSON/JSON5, or not a list of valid clips
  fc.integer({ min: 11, max: 14 }).map((n) => Array.from({ length: n }, () => VALID_CLIP)),
  fc.constant(Array.from({ length: 6 }, () => ({ bot_uid: 'bot_ava', text: 'y'.repeat(1900) }))), // 11 400 characters in all
  fc
    .tuple(fc.array(fc.oneof(fc.constant(VALID_CLIP), fc.anything({ maxDepth: 2 })), { maxLength: 3 }), badClip, fc.nat())
    .map(([others, bad, at]) => {
      const list: unknown[] = [...others];
      list.splice(at % (list.length + 1), 0, bad);
      return list;
    }),
);

const invalidWebhook = fc.oneof(
  fc.oneof(
    fc.integer(),
    fc.boolean(),
    fc.array(fc.string(), { maxLength: 2 }),
    fc.dictionary(fc.string({ maxLength: 4 }), fc.string(), { maxKeys: 2 }),
  ),
  fc.constantFrom(
    '',
    'ftp://example.com/h',
    'file:///etc/passwd',
    'http://user:pw@example.com/h',
    'gopher://x/',
    'http://',
    'http://[::1',
    'https://exa mple.com/',
    `https://${'a'.repeat(2100)}.com/`,
  ),
);

const otherFields = fc.dictionary(extraKey(CREATE_FIELDS), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });

/** Bytes that are not UTF-8: a lone continuation byte, overlong forms, surrogates, truncated sequences, 0xF5+. */
const invalidUtf8 = fc.constantFrom(
  [0xff],
  [0xfe],
  [0x80],
  [0xc0, 0x80],
  [0xc1, 0xbf],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xf5, 0x80, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
);

function multipartBody(parts: [string, Buffer | string][], boundary = 'vidbotfuzzboundary') {
  const chunks: Buffer[] = [];
  for (const [name, value] of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`), Buffer.from(value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
const formFields = (value: Record<string, unknown>): [string, string][] =>
  Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);

/** {"k0":{"k1":{..."<key>": value}}} as JSON text: JSON.stringify of an object cannot produce an own "__proto__". */
const nested = (key: string, depth: number, value: unknown) => {
  let text = `{${JSON.stringify(key)}:${JSON.stringify(value)}}`;
  for (let i = depth - 1; i >= 0; i--) text = `{"k${i}":${text}}`;
  return text;
};

export const categories = {
  wrongContentType: fc
    .tuple(
      path,
      fc
        .oneof(
          fc.constantFrom(
            'text/plain',
            'application/xml',
            'text/json',
            'application/octet-stream',
            'image/png',
            'application/jsonp',
            'application/ld+json',
            'multipart/mixed',
            'application/json-patch+json',
          ),
          fc.stringMatching(/^[a-z]{1,10}\/[a-z0-9.+-]{1,15}$/),
        )
        .filter((ct) => !ACCEPTED.includes(ct.toLowerCase())),
      fc.oneof(fc.constant(JSON.stringify(VALID)), fc.string({ minLength: 1 })),
    )
    .map(([p, contentType, body]): FuzzRequest => ({ category: 'wrong content type', path: p, contentType, body: Buffer.from(body), expected: 415 })),
  noContentType: fc
    .tuple(path, fc.oneof(fc.constant(JSON.stringify(VALID)), fc.string()))
    .map(([p, body]): FuzzRequest => ({ category: 'no content type', path: p, body: Buffer.from(body), expected: body.length ? 415 : 400 })),
  malformedJson: fc
    .tuple(
      path,
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 60 }).filter((s) => {
          try {
            JSON.parse(s);
            return false;
          } catch {
            return true;
          }
        }),
        fc.nat().map((n) => JSON.stringify(VALID).slice(0, n % JSON.stringify(VALID).length)),
      ),
    )
    .map(
      ([p, body]): FuzzRequest => ({ category: 'malformed JSON', path: p, contentType: 'application/json', body: Buffer.from(body), expected: 400 }),
    ),
  nonObjectJson: fc
    .jsonValue({ maxDepth: 2 })
    .filter((v) => v === null || typeof v !== 'object' || Array.isArray(v))
    .chain((v) => json(v, 'JSON body not an object')),
  badWebhook: fc
    .tuple(fc.option(invalidWebhook, { nil: undefined }), otherFields)
    .chain(([webhook, extra]) => json({ ...extra, ...VALID, webhook }, 'bad webhook')),
  conflictingWebhooks: otherFields.chain((extra) =>
    json({ ...extra, ...VALID, process_done_webhook: 'https://other.example/h' }, 'webhook and process_done_webhook differ'),
  ),
  badCreateVideo: fc
    .oneof(fc.constantFrom('yes', 'no', 'ja', '2', 'T', null), fc.integer({ min: 2 }), fc.dictionary(fc.string(), fc.integer(), { maxKeys: 1 }))
    .chain((create_video) => json({ ...VALID, create_video }, 'bad create_video')),
  badClipsJson: fc.tuple(badClips, otherFields).chain(([clips, extra]) => json({ ...extra, ...VALID, clips }, 'bad clips (JSON)')),
  badClipsAsString: badClips.chain((clips) => json({ ...VALID, clips: JSON.stringify(clips) }, 'bad clips (JSON string)')),
  badClipsForm: fc.tuple(path, badClips, fc.boolean()).map(([p, clips, multipart]): FuzzRequest => {
    const fields = formFields({ ...VALID, clips });
    if (multipart) return { category: 'bad clips (multipart)', path: p, ...multipartBody(fields), expected: 400 };
    return {
      category: 'bad clips (urlencoded)',
      path: p,
      contentType: 'application/x-www-form-urlencoded',
      body: Buffer.from(new URLSearchParams(fields).toString()),
      expected: 400,
    };
  }),
  forbiddenKeyJson: fc
    .tuple(
      path,
      fc.constantFrom(...FORBIDDEN),
      fc.constantFrom('top', 'clip', 'deep', 'clips string'),
      fc.integer({ min: 1, max: 5 }),
      fc.jsonValue({ maxDepth: 1 }),
    )
    .map(([p, key, where, depth, value]): FuzzRequest => {
      const base = JSON.stringify(VALID);
      const clipText = JSON.stringify(VALID_CLIP);
      const withKey = (objectText: string, member: string) => `${objectText.slice(0, -1)},${member}}`;
      const member = `${JSON.stringify(key)}:${JSON.stringify(value)}`;
      const text =
        where === 'top'
          ? withKey(base, member)
          : where === 'clip'
            ? base.replace(clipText, withKey(clipText, member))
            : where === 'deep'
              ? withKey(base, `"meta":${nested(key, depth, value)}`)
              : withKey(
                  JSON.stringify({ webhook: WEBHOOK, create_video: false }),
                  `"clips":${JSON.stringify(`[${withKey(clipText, `"extra":${nested(key, depth - 1, value)}`)}]`)}`,
                );
      return { category: `forbidden key (${where})`, path: p, contentType: 'application/json', body: Buffer.from(text), expected: 400 };
    }),
  forbiddenKeyForm: fc.tuple(path, fc.constantFrom(...FORBIDDEN), fc.boolean(), fc.boolean()).map(([p, key, inClips, multipart]): FuzzRequest => {
    const fields = formFields(VALID);
    // In a field name, or inside the clips text in the sample's JSON5 style ('single quotes').
    if (inClips) fields[fields.findIndex(([k]) => k === 'clips')]![1] = `[{'bot_uid': 'bot_ava', 'text': 'Hi.', '${key}': {'x': 1}}]`;
    else fields.push([key, 'x']);
    if (multipart) return { category: 'forbidden key (multipart)', path: p, ...multipartBody(fields), expected: 400 };
    return {
      category: 'forbidden key (urlencoded)',
      path: p,
      contentType: 'application/x-www-form-urlencoded',
      body: Buffer.from(new URLSearchParams(fields).toString()),
      expected: 400,
    };
  }),
  duplicateFormField: fc
    .tuple(path, fc.constantFrom(...CREATE_FIELDS.filter((f) => f !== 'process_done_webhook')), fc.boolean())
    .map(([p, field, multipart]): FuzzRequest => {
      const fields = formFields(VALID);
      fields.push([field, fields.find(([k]) => k === field)![1]]);
      if (multipart) return { category: 'duplicate field (multipart)', path: p, ...multipartBody(fields), expected: 400 };
      return {
        category: 'duplicate field (urlencoded)',
        path: p,
        contentType: 'application/x-www-form-urlencoded',
        body: Buffer.from(new URLSearchParams(fields).toString()),
        expected: 400,
      };
    }),
  hugeText: fc.tuple(path, fc.integer({ min: 200 * 1024, max: 320 * 1024 })).map(([p, size]): FuzzRequest => {
    const body = Buffer.from(JSON.stringify({ ...VALID, clips: [{ ...VALID_CLIP, text: 'x'.repeat(size) }] }));
    return { category: 'huge text', path: p, contentType: 'application/json', body, expected: body.length > MAX_BODY ? 413 : 400 };
  }),
  hugeBody: fc.tuple(path, fc.integer({ min: MAX_BODY + 1, max: 400 * 1024 }), fc.boolean()).map(([p, size, multipart]): FuzzRequest => {
    // A valid request padded past the limit with an extra field: refused for its size alone.
    const fields = formFields(VALID);
    const padding = 'p'.repeat(size);
    if (multipart) return { category: 'huge body (multipart)', path: p, ...multipartBody([...fields, ['padding', padding]]), expected: 413 };
    return {
      category: 'huge body (JSON)',
      path: p,
      contentType: 'application/json',
      body: Buffer.from(JSON.stringify({ ...VALID, padding })),
      expected: 413,
    };
  }),
  invalidUtf8Multipart: fc
    .tuple(path, fc.constantFrom('webhook', 'create_video', 'clips'), invalidUtf8, fc.nat())
    .map(([p, field, bytes, at]): FuzzRequest => {
      const fields = formFields(VALID).map(([k, v]): [string, Buffer] => {
        const value = Buffer.from(v);
        if (k !== field) return [k, value];
        // Inside the clip's text when it is the clips field, else anywhere in the value.
        const cut = k === 'clips' ? value.indexOf('Hi.') + 2 : at % (value.length + 1);
        return [k, Buffer.concat([value.subarray(0, cut), Buffer.from(bytes), value.subarray(cut)])];
      });
      return { category: 'invalid UTF-8 (multipart)', path: p, ...multipartBody(fields), expected: 400 };
    }),
  invalidUtf8PercentEncoded: fc.tuple(path, invalidUtf8).map(([p, bytes]): FuzzRequest => {
    const escaped = bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    const clips = encodeURIComponent(JSON.stringify([VALID_CLIP])).replace('Hi.', `Hi${escaped}.`);
    const body = `webhook=${encodeURIComponent(WEBHOOK)}&create_video=false&clips=${clips}`;
    return {
      category: 'invalid UTF-8 (urlencoded, percent-escaped)',
      path: p,
      contentType: 'application/x-www-form-urlencoded',
      body: Buffer.from(body),
      expected: 400,
    };
  }),
  invalidUtf8Raw: fc
    .tuple(path, fc.constantFrom('application/json', 'application/x-www-form-urlencoded'), invalidUtf8)
    .map(([p, contentType, bytes]): FuzzRequest => {
      // An otherwise valid request with the bad bytes inside the clip's text.
      const text =
        contentType === 'application/json'
          ? JSON.stringify(VALID)
          : `webhook=${encodeURIComponent(WEBHOOK)}&create_video=false&clips=${encodeURIComponent(JSON.stringify([VALID_CLIP]))}`;
      const at = text.indexOf('Hi') + 2;
      const body = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(bytes), Buffer.from(text.slice(at))]);
      return { category: `invalid UTF-8 (raw, ${contentType})`, path: p, contentType, body, expected: 400 };
    }),
  malformedMultipart: fc
    .tuple(
      path,
      fc.constantFrom(
        'multipart/form-data',
        'multipart/form-data; boundary=',
        'multipart/form-data; boundary=zz',
        'multipart/form-data; boundary="unterminated',
      ),
      fc.uint8Array({ maxLength: 200 }),
    )
    .map(
      ([p, contentType, bytes]): FuzzRequest => ({
        category: 'malformed multipart',
        path: p,
        contentType,
        body: Buffer.from(bytes),
        expected: '4xx',
      }),
    ),
};
