/** One canonical JSON: what an Idempotency-Key names and how a render spec's stored maps are ordered. */
import { describe, expect, it } from 'vitest';
import { hashOf } from '#commons/idempotent';
import { canonicalJson, withSortedKeys } from '#domain/canonical-json';

const body = {
  webhook: 'https://e.com/h',
  clips: [{ text: 'Hi "there"', bot_uid: 'bot_ava', n: 1.5, ok: true, none: null }],
  logo: '{"url":"x"}',
  template: 'tpl_1',
};

describe('canonical JSON', () => {
  it('sorts the keys of every object, keeps the order of arrays', () => {
    expect(canonicalJson(body)).toBe(
      '{"clips":[{"bot_uid":"bot_ava","n":1.5,"none":null,"ok":true,"text":"Hi \\"there\\""}],"logo":"{\\"url\\":\\"x\\"}","template":"tpl_1","webhook":"https://e.com/h"}',
    );
    expect(withSortedKeys([{ b: 1, a: [{ d: 1, c: 2 }] }, 3])).toEqual([{ a: [{ c: 2, d: 1 }], b: 1 }, 3]);
    expect(JSON.stringify(withSortedKeys({ b: 1, a: 2 }))).toBe('{"a":2,"b":1}');
  });

  it('names a request body as it did for the Idempotency-Keys already stored (pinned)', () => {
    expect(hashOf(body)).toBe('32b5aecf38afc112fc0758255100b7a9fe8bb5d61f739c8c6111c9e46b7607b4');
    expect(hashOf({ ...body, webhook: 'https://e.com/other' })).not.toBe(hashOf(body));
  });
});
