import type { Problem } from '../api.ts';
import { problemsAt } from '../state.ts';

type ProblemsAt = (path: string) => Problem[];

/**
 * The messages for one request path, shown under its field; the field points here with aria-describedby. `at`
 * says whose problems: the composer's (the default) or another form's (the bot form's).
 */
export function FieldError({ id, path, at = problemsAt }: { id: string; path: string; at?: ProblemsAt }) {
  const found = at(path);
  if (found.length === 0) return null;
  return (
    <p class="field-error" id={id}>
      {found.map((p) => p.message).join('; ')}
    </p>
  );
}

/** Props that tie a control to its FieldError. */
export const invalidProps = (id: string, path: string, at: ProblemsAt = problemsAt) =>
  at(path).length ? { 'aria-invalid': true as const, 'aria-describedby': id } : {};
