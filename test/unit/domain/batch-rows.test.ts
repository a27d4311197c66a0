import { describe, expect, it } from 'vitest';
import { parseBatchFields } from '#domain/batch-request';
import { readBatchRows } from '#domain/batch-rows';
import { InvalidRequestError } from '#domain/errors';
import { limits } from '#domain/limits';
import { parsePlaceholders } from '#domain/placeholders';

const problems = (value: unknown) => {
  try {
    readBatchRows(value);
  } catch (error) {
    if (error instanceof InvalidRequestError) return error.problems;
    throw error;
  }
  throw new Error('accepted');
};

describe('batch rows', () => {
  it('reads RFC 4180 CSV: a BOM, quoted commas, quotes and line breaks, CRLF; empty cells left to their default', () => {
    const csv = '\ufefffirst_name,company\r\n"Alan, Jr.","Say ""hi"""\r\n"Two\nlines",\r\n\r\nAda,Acme\r\n';
    expect(readBatchRows(csv)).toEqual([
      { values: { first_name: 'Alan, Jr.', company: 'Say "hi"' }, line: 2 },
      { values: { first_name: 'Two\nlines' }, line: 4 },
      { values: { first_name: 'Ada', company: 'Acme' }, line: 6 },
    ]);
  });

  it('keeps a cell that looks like a formula as the text it is', () => {
    expect(readBatchRows('name\n=HYPERLINK("http://x")\n+1\n-2\n@SUM(A1)\n').map((r) => r.values.name)).toEqual([
      '=HYPERLINK("http://x")',
      '+1',
      '-2',
      '@SUM(A1)',
    ]);
  });

  it('names what is wrong with a malformed file, in its own words and with the line', () => {
    expect(problems('a,b\n1,2,3\n')).toEqual([
      { path: 'rows', message: 'is not a valid CSV file: a row has another number of cells than the header (line 2)' },
    ]);
    expect(problems('a\n"open\n')[0]!.message).toMatch(/quoted cell is not closed/);
    expect(problems('first name,1st\nx,y\n').map((p) => p.message)).toEqual([
      'column 1 of the header ("first name") is not a variable name (a letter or _, then letters, digits or _)',
      'column 2 of the header ("1st") is not a variable name (a letter or _, then letters, digits or _)',
    ]);
    expect(problems('a,a\n1,2\n')[0]!.message).toBe('column 2 of the header names "a" a second time');
    expect(problems('a\n')[0]!.message).toBe('has no row: send at least one');
    expect(problems('')[0]!.message).toMatch(/is required/);
  });

  it(`refuses more than ${limits.maxBatchRows} rows and more than 2 MB of CSV, and anything but objects in JSON`, () => {
    expect(problems(`a\n${'x\n'.repeat(limits.maxBatchRows + 1)}`)[0]!.message).toMatch(/more than 1000 rows/);
    expect(readBatchRows(`a\n${'x\n'.repeat(limits.maxBatchRows)}`)).toHaveLength(limits.maxBatchRows);
    expect(problems(`a\n${'x'.repeat(1000)}\n`.repeat(2200))[0]!.message).toMatch(/more than 2 MB/);
    expect(problems(Array.from({ length: limits.maxBatchRows + 1 }, () => ({})))[0]!.message).toMatch(/1001 rows/);
    expect(problems([{ a: '1' }, 'x', [1]])).toEqual([
      { path: 'rows[1]', message: 'must be an object of variable names to text values' },
      { path: 'rows[2]', message: 'must be an object of variable names to text values' },
    ]);
    expect(problems({ a: 1 })[0]!.message).toMatch(/JSON array of objects/);
  });

  it('reads the batch fields and names unknown ones', () => {
    expect(parseBatchFields({ webhook: 'https://x.test', rows: [], notify_each: 'true' })).toEqual({
      webhook: 'https://x.test',
      notifyEach: true,
      dryRun: false,
    });
    expect(parseBatchFields({ rows: [], dry_run: true })).toMatchObject({ notifyEach: false, dryRun: true });
    expect(() => parseBatchFields({ rows: [], notify_each: 'maybe', clips: [] })).toThrow(InvalidRequestError);
    try {
      parseBatchFields({ rows: [], dry_run: 'yes' });
    } catch (error) {
      expect((error as InvalidRequestError).problems).toEqual([{ path: 'dry_run', message: 'must be true or false' }]);
    }
    expect(() => parseBatchFields({ rows: [], dry_run: 'yes' })).toThrow(InvalidRequestError);
    // An empty dry_run is refused, never read as "make the batch"; an empty notify_each is simply not given.
    expect(() => parseBatchFields({ rows: [], dry_run: '' })).toThrow(InvalidRequestError);
    expect(parseBatchFields({ rows: [], notify_each: '' })).toMatchObject({ notifyEach: false });
  });

  it('refuses reserved names as variables: in a header and in a placeholder', () => {
    expect(problems('__proto__,name\nA,B\n')[0]).toMatchObject({ path: 'rows', message: expect.stringMatching(/is a reserved name/) });
    expect(parsePlaceholders('Hi {{constructor}}')).toEqual({ problem: expect.stringMatching(/is reserved/) });
    expect(parsePlaceholders('Hi {{constructor_name}}')).toMatchObject({ parts: [{ text: 'Hi ' }, { variable: 'constructor_name' }] });
  });
});
