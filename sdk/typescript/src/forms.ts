/**
 * The interface's multipart form: every field as text, `clips` (and any other object) as JSON. The service reads
 * the same fields from a form as from JSON; the form is what the interface's own sample sends.
 */
export function toForm(fields: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : name);
    else form.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return form;
}

/** Rows as a CSV file's text: a header of the variables every row names, then one line per row (RFC 4180 quoting). */
export function rowsToCsv(rows: Record<string, string | number | boolean | null | undefined>[]): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cell = (value: unknown) => {
    const text = value === null || value === undefined ? '' : String(value);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const lines = [columns, ...rows.map((row) => columns.map((column) => row[column]))].map((line) => `${line.map(cell).join(',')}\r\n`);
  return lines.join('');
}
