/**
 * Placeholders in a template's text: `{{name}}`, or `{{name|default text}}`. A name is a letter or `_` then up
 * to 63 letters, digits or `_`. Anything else between `{{` and `}}` is refused, and so is a `{{` never closed: a
 * template is checked when it is saved, never later per row. A lone `}}` is text.
 */

export const VARIABLE_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/;
/** Names JavaScript objects carry already: refused as variables, as the request readers refuse them as keys. */
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);
/** A variable's name: the pattern, and none of the reserved names. */
export const isVariableName = (name: string) => VARIABLE_NAME_PATTERN.test(name) && !RESERVED_NAMES.has(name);
/** The longest default a placeholder may carry (a value is at most as long: see limits.maxVariableChars). */
const MAX_DEFAULT_CHARS = 500;

export type TemplatePart = { text: string } | { variable: string; default?: string };

/** A string of a template cut into literal text and placeholders, or the reason it cannot be. */
export function parsePlaceholders(value: string): { parts: TemplatePart[] } | { problem: string } {
  const parts: TemplatePart[] = [];
  let at = 0;
  while (at < value.length) {
    const open = value.indexOf('{{', at);
    if (open < 0) break;
    if (open > at) parts.push({ text: value.slice(at, open) });
    const close = value.indexOf('}}', open + 2);
    if (close < 0) return { problem: `has a "{{" at character ${open + 1} that is never closed with "}}"` };
    const inside = value.slice(open + 2, close);
    const bar = inside.indexOf('|');
    const name = (bar < 0 ? inside : inside.slice(0, bar)).trim();
    if (!VARIABLE_NAME_PATTERN.test(name))
      return { problem: `has a placeholder "{{${inside.slice(0, 70)}}}" whose name is not a letter or _ followed by up to 63 letters, digits or _` };
    if (!isVariableName(name)) return { problem: `has a placeholder "{{${name}}}" whose name is reserved (__proto__, constructor, prototype)` };
    if (bar < 0) parts.push({ variable: name });
    else {
      const fallback = inside.slice(bar + 1);
      if (fallback.includes('{{')) return { problem: `has a placeholder inside the default of "{{${name}|…}}"` };
      if (fallback.length > MAX_DEFAULT_CHARS) return { problem: `has a default of "{{${name}|…}}" longer than ${MAX_DEFAULT_CHARS} characters` };
      parts.push({ variable: name, default: fallback });
    }
    at = close + 2;
  }
  if (at < value.length) parts.push({ text: value.slice(at) });
  return { parts };
}

export const hasPlaceholder = (parts: TemplatePart[]) => parts.some((p) => 'variable' in p);

/**
 * The text with each placeholder replaced by `fill(name, default)`, in one pass: a value that itself holds
 * `{{…}}` stays that text, it is never read as a placeholder.
 */
export const fillPlaceholders = (parts: TemplatePart[], fill: (name: string, fallback: string | undefined) => string): string =>
  parts.map((p) => ('variable' in p ? fill(p.variable, p.default) : p.text)).join('');
