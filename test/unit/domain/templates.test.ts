import { describe, expect, it } from 'vitest';
import { parseCreateVideo } from '#domain/create-request';
import { InvalidRequestError } from '#domain/errors';
import { limits } from '#domain/limits';
import { fillPlaceholders, parsePlaceholders } from '#domain/placeholders';
import { shownText } from '#domain/speech-markup';
import { fieldsFromTemplate, parseTemplate, type TemplateRecord } from '#domain/templates';

const problemsOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidRequestError) return error.problems;
    throw error;
  }
  throw new Error('expected a refusal');
};

const outreach = {
  name: 'Outreach',
  aspect_ratio: '9:16',
  clips: [
    { bot_uid: 'bot_ava', text: 'Hi {{first_name}}, welcome to {{company|our team}}!', clip_name: 'Hello {{first_name}}' },
    { bot_uid: 'bot_leo', text: 'See you soon.', clip_name: 'Outro' },
  ],
};

const record = (body: Record<string, unknown> = outreach): TemplateRecord => {
  const saved = parseTemplate('outreach', body);
  return { tenantId: 't1', uid: saved.uid, name: saved.name, request: saved.request, variables: saved.variables, createdAt: '', updatedAt: '' };
};

describe('placeholders', () => {
  it('cuts text into literal parts and placeholders, defaults included', () => {
    expect(parsePlaceholders('Hi {{ first_name }}, {{x|a friend}}}} end')).toEqual({
      parts: [{ text: 'Hi ' }, { variable: 'first_name' }, { text: ', ' }, { variable: 'x', default: 'a friend' }, { text: '}} end' }],
    });
  });

  it('refuses an unclosed {{, a bad name and a placeholder in a default', () => {
    expect(parsePlaceholders('Hi {{name')).toEqual({ problem: expect.stringMatching(/never closed/) });
    expect(parsePlaceholders('{{1abc}}')).toEqual({ problem: expect.stringMatching(/name/) });
    expect(parsePlaceholders('{{a b}}')).toEqual({ problem: expect.stringMatching(/name/) });
    expect(parsePlaceholders(`{{${'a'.repeat(65)}}}`)).toEqual({ problem: expect.stringMatching(/name/) });
    expect(parsePlaceholders('{{a|{{b}}}}')).toEqual({ problem: expect.stringMatching(/inside the default/) });
  });

  it('fills in one pass: a value holding {{…}} stays text', () => {
    const parsed = parsePlaceholders('Hi {{a}}!');
    if (!('parts' in parsed)) throw new Error('parse');
    expect(fillPlaceholders(parsed.parts, () => '{{b}}')).toBe('Hi {{b}}!');
  });
});

describe('parseTemplate', () => {
  it("keeps the video's logo, checked when saved, and gives it to every video made from the template", () => {
    const logo = { url: 'https://cdn.example.com/logo.png', position: 'bottom-left' };
    const fields = fieldsFromTemplate(record({ ...outreach, logo }), { first_name: 'Ana' });
    expect(parseCreateVideo({ ...fields, webhook: 'https://e.com/h' }).logo).toEqual({ ...logo, size: 0.12, opacity: 1 });
    expect(problemsOf(() => parseTemplate('t-1', { ...outreach, logo: { ...logo, size: 2 } }))).toEqual([
      { path: 'logo.size', message: 'must be between 0.05 and 0.3' },
    ]);
  });

  it('lists the variables with their defaults, required when none is given', () => {
    const saved = parseTemplate('outreach', outreach);
    expect(saved.variables).toEqual([
      { name: 'first_name', required: true },
      { name: 'company', required: false, default: 'our team' },
    ]);
    expect(saved.sample.shape.aspectRatio).toBe('9:16');
    expect(saved.request.clips[0]!.text).toBe('Hi {{first_name}}, welcome to {{company|our team}}!');
  });

  it('refuses, naming the field: a webhook, an unknown field, a placeholder where none may be, an unclosed {{, a bad position', () => {
    const paths = problemsOf(() =>
      parseTemplate('t-1', {
        name: 'x',
        webhook: 'https://e.com',
        colour: 'red',
        aspect_ratio: '{{shape}}',
        clips: [
          { bot_uid: 'bot_ava', text: 'Hi {{name', remove_bot_background: '{{flag}}' },
          { bot_uid: 'bot_ava', text: 'ok', bot_position: 'nowhere' },
        ],
      }),
    ).map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['webhook', 'colour', 'aspect_ratio', 'clips[0].text', 'clips[0].remove_bot_background']));
    // Structural problems first; the sample check (positions, …) once those are fixed.
    expect(problemsOf(() => parseTemplate('t-1', { name: 'x', clips: [{ bot_uid: 'bot_ava', text: 'ok', bot_position: 'nowhere' }] }))).toEqual([
      { path: 'clips[0].bot_position', message: expect.stringMatching(/must be one of/) },
    ]);
  });

  it('checks a placeholder alone in a field with a value valid for that field, and a literal around it as written', () => {
    expect(() =>
      parseTemplate('t-1', { name: 'x', clips: [{ bot_uid: '{{bot}}', text: '{{line}}', bot_position: '{{where}}', background: '{{bg}}' }] }),
    ).not.toThrow();
    expect(
      problemsOf(() => parseTemplate('t-1', { name: 'x', clips: [{ bot_uid: 'bot_ava', text: 'x', background: 'ftp://{{host}}/a.mp4' }] }))[0]?.path,
    ).toBe('clips[0].background');
  });

  it('refuses two different defaults for one variable, a bad uid, and no name', () => {
    expect(problemsOf(() => parseTemplate('t-1', { name: 'x', clips: [{ bot_uid: 'bot_ava', text: '{{a|one}} {{a|two}}' }] }))[0]?.message).toMatch(
      /default/,
    );
    expect(problemsOf(() => parseTemplate('A!', outreach))[0]?.path).toBe('uid');
    expect(problemsOf(() => parseTemplate('t-1', { clips: outreach.clips }))[0]?.path).toBe('name');
  });
});

describe('fieldsFromTemplate', () => {
  it('fills the values and defaults into a request that validates as any create request', () => {
    const fields = fieldsFromTemplate(record(), { first_name: 'Ada' });
    const command = parseCreateVideo({ ...fields, webhook: 'https://e.com/h' });
    expect(command.clips[0]).toMatchObject({ text: 'Hi Ada, welcome to our team!', clip_name: 'Hello Ada' });
    expect(command.clips[1]).toMatchObject({ text: 'See you soon.' });
    expect(command.shape.aspectRatio).toBe('9:16');
  });

  it('names a missing, an unknown, a non-text and a too long value', () => {
    expect(problemsOf(() => fieldsFromTemplate(record(), {}))).toEqual([{ path: 'variables.first_name', message: 'is required' }]);
    const problems = problemsOf(() => fieldsFromTemplate(record(), { first_name: 'Ada', nickname: 'x', company: { a: 1 } }));
    expect(problems.map((p) => p.path)).toEqual(['variables.nickname', 'variables.company']);
    expect(problemsOf(() => fieldsFromTemplate(record(), { first_name: 'x'.repeat(limits.maxVariableChars + 1) }))[0]?.path).toBe(
      'variables.first_name',
    );
    expect(problemsOf(() => fieldsFromTemplate(record(), 'Ada', 'rows[3]'))).toEqual([{ path: 'rows[3]', message: expect.stringMatching(/object/) }]);
  });

  it('keeps a value as text: markup-like and placeholder-like values are spoken as written, and rules still apply after filling', () => {
    const fields = fieldsFromTemplate(record(), { first_name: '{{company}} <b>"x"</b>' });
    const command = parseCreateVideo({ ...fields, webhook: 'https://e.com/h' });
    // Escaped into the text: said and shown as written, never read as markup.
    expect(command.clips[0]).toMatchObject({ text: 'Hi {{company}} &lt;b&gt;"x"&lt;/b&gt;, welcome to our team!' });
    expect(shownText((command.clips[0] as { text: string }).text)).toBe('Hi {{company}} <b>"x"</b>, welcome to our team!');
    const marked = record({ name: 'm', clips: [{ bot_uid: 'bot_ava', text: 'Hi <emphasis>{{name}}</emphasis>.<break time="{{pause|1s}}"/>' }] });
    expect(parseCreateVideo({ ...fieldsFromTemplate(marked, { name: 'R&D <3' }), webhook: 'https://e.com/h' }).clips[0]).toMatchObject({
      text: 'Hi <emphasis>R&amp;D &lt;3</emphasis>.<break time="1s"/>',
    });
    const withUrl = record({ name: 'bg', clips: [{ bot_uid: 'bot_ava', text: 'x', background: '{{bg}}' }] });
    expect(
      problemsOf(() => parseCreateVideo({ ...fieldsFromTemplate(withUrl, { bg: 'file:///etc/passwd' }), webhook: 'https://e.com/h' }))[0]?.path,
    ).toBe('clips[0].background');
  });

  it("fills bot_size from a variable, checks it as a size, and leaves it out when filled with nothing (the clip's default)", () => {
    const t = record({ name: 's', clips: [{ bot_uid: 'bot_ava', text: 'x', bot_size: '{{size|}}' }] });
    const sized = (size?: string) => parseCreateVideo({ ...fieldsFromTemplate(t, size === undefined ? {} : { size }), webhook: 'https://e.com/h' });
    expect(sized('FULL').clips[0]).toMatchObject({ bot_size: 'full' });
    expect(sized().clips[0]).not.toHaveProperty('bot_size');
    expect(problemsOf(() => sized('huge'))[0]).toEqual({ path: 'clips[0].bot_size', message: 'must be one of small, medium, large, full' });
    expect(() => parseTemplate('t-1', { name: 'x', clips: [{ bot_uid: 'bot_ava', text: 'x', bot_size: '{{size}}' }] })).not.toThrow();
  });

  it("leaves out an optional field filled with nothing, so the bot's own is used", () => {
    const t = record({ name: 'v', clips: [{ bot_uid: 'bot_ava', text: 'x', voice: '{{voice|}}', bot_position: '{{where|}}' }] });
    const command = parseCreateVideo({ ...fieldsFromTemplate(t, {}), webhook: 'https://e.com/h' });
    expect(command.clips[0]).not.toHaveProperty('voice');
    expect(command.clips[0]).not.toHaveProperty('bot_position');
  });
});

describe('a template with music', () => {
  it('keeps its music: every video made from it has the bed, checked as a create request when saved', () => {
    const withMusic = { ...outreach, music: { url: 'https://cdn.example.com/bed.mp3', volume: 0.3 } };
    const saved = parseTemplate('outreach', withMusic);
    expect(saved.sample.music).toEqual({ url: 'https://cdn.example.com/bed.mp3', volume: 0.3 });
    const fields = fieldsFromTemplate(record(withMusic), { first_name: 'Ada' });
    expect(parseCreateVideo({ ...fields, webhook: 'https://e.com/h' }).music).toEqual({ url: 'https://cdn.example.com/bed.mp3', volume: 0.3 });
    // As a form gives it: the object's JSON.
    const fromForm = fieldsFromTemplate(record({ ...outreach, music: '{"preset": "calm"}' }), { first_name: 'Ada' });
    expect(parseCreateVideo({ ...fromForm, webhook: 'https://e.com/h' }).music).toEqual({ preset: 'calm', volume: 0.25 });
  });

  it('refuses a bad music when saved, and a placeholder in it (placeholders fill the clips only)', () => {
    expect(problemsOf(() => parseTemplate('t-1', { ...outreach, music: { preset: 'loud' } }))).toEqual([
      { path: 'music.preset', message: expect.stringMatching(/^must be one of calm/) },
    ]);
    expect(problemsOf(() => parseTemplate('t-1', { ...outreach, music: { url: 'https://cdn.example.com/{{track}}.mp3' } }))).toEqual([
      { path: 'music', message: 'takes no placeholder' },
    ]);
    expect(problemsOf(() => parseTemplate('t-1', { ...outreach, music: '{"url": "https://x.example/{{t}}.mp3"}' }))).toEqual([
      { path: 'music', message: 'takes no placeholder' },
    ]);
  });
});
