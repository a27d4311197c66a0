/**
 * Measures of the code's shape read with the TypeScript parser: each source file's length, each function's length,
 * and the import graph (for cycles). test/unit/code/shape.test.ts holds the limits and the documented exceptions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');

/** Source files (`.ts`, `.tsx`, `.mjs`) under `dir` (relative to the repository), as repository-relative paths. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(join(ROOT, at), { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = `${at}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
    }
  };
  walk(dir);
  return out.sort();
}

const parsed = new Map<string, ts.SourceFile>();
function parse(path: string): ts.SourceFile {
  let file = parsed.get(path);
  if (!file) {
    const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : path.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
    file = ts.createSourceFile(path, readFileSync(join(ROOT, path), 'utf8'), ts.ScriptTarget.Latest, true, kind);
    parsed.set(path, file);
  }
  return file;
}

/** Lines of a file (a final newline ends the last line; it does not start another). */
export function lineCount(path: string): number {
  const file = parse(path);
  return file.getLineStarts().length - (file.text.endsWith('\n') ? 1 : 0);
}

export interface FunctionSpan {
  /** `path:line name` */
  where: string;
  lines: number;
}

function nameOf(node: ts.Node): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  if (named.name && ts.isPropertyName(named.name)) return named.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

/** Every function, method, constructor and arrow function of a file with its length in lines (first to last). */
export function functionSpans(path: string): FunctionSpan[] {
  const file = parse(path);
  const spans: FunctionSpan[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      spans.push({ where: `${path}:${first + 1} ${nameOf(node)}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return spans;
}

/**
 * Every class of a file that extends `Error` or another class named `…Error`, as `path:line Name`: the classes of
 * errors, whose names the convention says end in `Error`.
 */
export function errorClasses(path: string): string[] {
  const file = parse(path);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isClassLike(node) && node.name) {
      const base = node.heritageClauses?.find((c) => c.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression.getText(file);
      if (base && /(^|\.)(\w*Error)$/.test(base)) {
        found.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1} ${node.name.text}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** package.json `imports` of this repository, as written there. */
const SUBPATHS: Record<string, string> = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).imports;

/** The repository-relative file an import names, or undefined for a package. */
function resolveImport(from: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) return relative(ROOT, resolve(ROOT, dirname(from), specifier));
  for (const [pattern, target] of Object.entries(SUBPATHS)) {
    const prefix = pattern.slice(0, -1);
    if (pattern.endsWith('*') && specifier.startsWith(prefix)) {
      return relative(ROOT, resolve(ROOT, target.replace('*', specifier.slice(prefix.length))));
    }
  }
  return undefined;
}

/** Whether an import or re-export brings values (a type-only one is erased and cannot make a load-order knot). */
function bringsValues(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return false;
    const clause = node.exportClause;
    return !clause || !ts.isNamedExports(clause) || clause.elements.some((e) => !e.isTypeOnly);
  }
  const clause = node.importClause;
  if (!clause) return true;
  if (clause.isTypeOnly) return false;
  if (clause.name) return true;
  const bindings = clause.namedBindings;
  return !bindings || !ts.isNamedImports(bindings) || bindings.elements.some((e) => !e.isTypeOnly);
}

/**
 * The files of the repository each file imports: all imports, or with `values` only those that bring values
 * (a cycle of values decides load order; a cycle of types is a knot in the design only).
 */
export function importGraph(files: string[], which: 'all' | 'values' = 'all'): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const path of files) {
    const targets: string[] = [];
    for (const node of parse(path).statements) {
      if (!ts.isImportDeclaration(node) && !ts.isExportDeclaration(node)) continue;
      if (!node.moduleSpecifier || !ts.isStringLiteral(node.moduleSpecifier)) continue;
      if (which === 'values' && !bringsValues(node)) continue;
      const target = resolveImport(path, node.moduleSpecifier.text);
      if (target) targets.push(target);
    }
    graph.set(path, [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected groups of more than one file (or a file importing itself): each is an import cycle. */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!order.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || graph.get(v)!.includes(v)) groups.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!order.has(v)) connect(v);
  return groups;
}
