/**
 * The rows of a batch as callers send them: a JSON array of objects (`"rows": [{"first_name": "Ada"}]`) or a CSV
 * file (`-F rows=@rows.csv`: a header row of variable names, then one row per video; UTF-8, RFC 4180 quoting).
 * CSV is read by csv-parse (docs/dependencies.md), not by hand. A cell is text, whatever it starts with: `=1+1`
 * is the words "=1+1" in a video, never a formula.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { type FieldProblem, InvalidRequestError } from './errors.ts';
import { limits } from './limits.ts';
import { isVariableName, VARIABLE_NAME_PATTERN } from './placeholders.ts';

export interface BatchRow {
  /** The row's values by variable name (a CSV's empty cells are left out, so a variable's default applies). */
  values: Record<string, unknown>;
  /** The CSV line the row ends on (1 is the header), for messages; absent for JSON rows. */
  line?: number;
}

const refuse = (message: string): never => {
  throw new InvalidRequestError([{ path: 'rows', message }]);
};

/** `rows` as sent: an array of objects, or CSV text. Too many rows, a malformed CSV or a bad header is a 400 on `rows`. */
export function readBatchRows(value: unknown): BatchRow[] {
  if (value === undefined || value === null || value === '') return refuse('is required: a JSON array of objects, or a CSV file');
  const rows = typeof value === 'string' ? rowsOfCsv(value) : rowsOfJson(value);
  if (rows.length === 0) refuse('has no row: send at least one');
  if (rows.length > limits.maxBatchRows) refuse(`has ${rows.length} rows; a batch has at most ${limits.maxBatchRows}`);
  return rows;
}

function rowsOfJson(value: unknown): BatchRow[] {
  if (!Array.isArray(value)) return refuse('must be a JSON array of objects (variable name to text), or a CSV file');
  if (value.length > limits.maxBatchRows) refuse(`has ${value.length} rows; a batch has at most ${limits.maxBatchRows}`);
  const problems: FieldProblem[] = [];
  const rows = value.map((row, index) => {
    if (!row || typeof row !== 'object' || Array.isArray(row))
      problems.push({ path: `rows[${index}]`, message: 'must be an object of variable names to text values' });
    return { values: (row ?? {}) as Record<string, unknown> };
  });
  if (problems.length) throw new InvalidRequestError(problems.slice(0, limits.maxBatchProblems));
  return rows;
}

function rowsOfCsv(text: string): BatchRow[] {
  if (Buffer.byteLength(text) > limits.maxBatchCsvBytes)
    refuse(`is a CSV of more than ${limits.maxBatchCsvBytes / 1024 / 1024} MB; split it into several batches`);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      // Whitespace around a cell is not part of it (a `\r` of a file that switches to CRLF included), and a record
      // of empty cells is a blank line, not a row: either would make a phantom video ("Hi .").
      trim: true,
      skip_records_with_empty_values: true,
      // A quote inside an unquoted cell is that character (=HYPERLINK("x")), as spreadsheets write it.
      relax_quotes: true,
      // One cell can hold at most a variable's value; a longer one is a broken file, not a value.
      max_record_size: 64 * 1024,
      // Records, not lines: a quoted cell may hold line breaks. The header and one record past the limit are read,
      // so a longer file is refused below rather than cut short.
      to: limits.maxBatchRows + 2,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    if (error instanceof CsvError) return refuse(`is not a valid CSV file: ${csvProblem(error)}`);
    throw error;
  }
  const [header, ...body] = records;
  if (!header) return refuse('has no header row: its first line names the variables');
  if (body.length > limits.maxBatchRows) refuse(`has more than ${limits.maxBatchRows} rows; a batch has at most ${limits.maxBatchRows}`);
  if (header.record.length > limits.maxTemplateVariables)
    refuse(`has ${header.record.length} columns; a template has at most ${limits.maxTemplateVariables} variables`);
  const names = header.record.map((name) => name.trim());
  const problems: FieldProblem[] = [];
  names.forEach((name, column) => {
    const where = `column ${column + 1} of the header`;
    if (!VARIABLE_NAME_PATTERN.test(name))
      problems.push({ path: 'rows', message: `${where} ("${name.slice(0, 64)}") is not a variable name (a letter or _, then letters, digits or _)` });
    else if (!isVariableName(name))
      problems.push({ path: 'rows', message: `${where} ("${name}") is a reserved name (__proto__, constructor, prototype)` });
    else if (names.indexOf(name) !== column) problems.push({ path: 'rows', message: `${where} names "${name}" a second time` });
  });
  if (problems.length) throw new InvalidRequestError(problems);
  return body.flatMap(({ record, info }) => {
    const values = Object.fromEntries(names.flatMap((name, column) => cellEntry(name, record[column])));
    return Object.keys(values).length ? [{ values, line: info.lines }] : [];
  });
}

/** A cell as a value: line breaks inside a quoted cell as `\n` whatever the file uses; whitespace alone is empty. */
function cellEntry(name: string, cell: string | undefined): [string, string][] {
  const value = (cell ?? '').replace(/\r\n?/g, '\n');
  return value.trim() === '' ? [] : [[name, value]];
}

/** csv-parse's error in our words: what is wrong and on which line (its message names options of its own). */
function csvProblem(error: CsvError): string {
  const line = (error as CsvError & { lines?: number }).lines;
  const at = line ? ` (line ${line})` : '';
  switch (error.code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
      return `a row has another number of cells than the header${at}`;
    case 'CSV_QUOTE_NOT_CLOSED':
      return `a quoted cell is not closed${at}`;
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return `a quote is followed by other characters inside a cell${at}; double a quote inside a quoted cell ("")`;
    case 'CSV_MAX_RECORD_SIZE':
      return `a row is longer than 64 KB${at}`;
    default:
      return `unreadable${at}`;
  }
}
