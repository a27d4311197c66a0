/**
 * A CSV's blank-looking records and mixed line endings: a whitespace-only line was a row of its own (a phantom
 * video, "Hi ."), and a file that switched from LF to CRLF kept `\r` at the end of every value after the switch.
 */
import { describe, expect, it } from 'vitest';
import { readBatchRows } from '#domain/batch-rows';

describe('CSV rows that look blank', () => {
  it('skips a trailing blank line, whitespace-only lines and records of whitespace-only cells', () => {
    expect(readBatchRows('first_name\nAda\n   \n\t\n').map((row) => row.values)).toEqual([{ first_name: 'Ada' }]);
    expect(readBatchRows('first_name,company\nAda,Acme\n  ,  \n"  ",\n\r\n').map((row) => row.values)).toEqual([
      { first_name: 'Ada', company: 'Acme' },
    ]);
  });

  it('leaves a whitespace-only cell to its default, like an empty one', () => {
    expect(readBatchRows('first_name,company\nAda,"   "\n').map((row) => row.values)).toEqual([{ first_name: 'Ada' }]);
  });

  it('normalises line endings: a file switching from LF to CRLF keeps no \\r in any value', () => {
    const rows = readBatchRows('first_name,company\nAda,Acme\r\nAlan,Bletchley\r\n"Two\r\nlines",X\r\n');
    expect(rows.map((row) => row.values)).toEqual([
      { first_name: 'Ada', company: 'Acme' },
      { first_name: 'Alan', company: 'Bletchley' },
      { first_name: 'Two\nlines', company: 'X' },
    ]);
    for (const row of rows) for (const value of Object.values(row.values)) expect(String(value)).not.toMatch(/\r/);
  });
});
