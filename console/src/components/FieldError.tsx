import { problemsAt } from '../state.ts';

/** The API's messages for one request path, shown under its field; the field points here with aria-describedby. */
export function FieldError({ id, path }: { id: string; path: string }) {
  const found = problemsAt(path);
  if (found.length === 0) return null;
  return (
    <p class="field-error" id={id}>
      {found.map((p) => p.message).join('; ')}
    </p>
  );
}

/** Props that tie a control to its FieldError. */
export const invalidProps = (id: string, path: string) =>
  problemsAt(path).length ? { 'aria-invalid': true as const, 'aria-describedby': id } : {};
