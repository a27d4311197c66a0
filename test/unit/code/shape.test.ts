/**
 * The code's shape, as docs/contributing.md states it: no source file over 400 lines, no function over 80 lines
 * outside the documented exceptions below, no import cycle in functions/ (a cycle of values decides load order;
 * one of types only is a knot in the design, allowed only among the domain's records and its ports), and every
 * class of error named `…Error`.
 */
import { describe, expect, it } from 'vitest';
import { cyclesOf, errorClasses, functionSpans, importGraph, lineCount, sourceFiles } from '../../support/code-shape.ts';

const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

/** Source written by people: the functions, the infrastructure, the console, the SDK and its scripts. */
const SOURCES = ['functions', 'infra', 'console/src', 'sdk/typescript/src', 'sdk/typescript/scripts'].flatMap(sourceFiles).concat('console/build.ts');

/** Files longer than the rule, and why. */
const LONG_FILES: Record<string, string> = {
  'sdk/typescript/src/generated/openapi.ts': 'generated from the OpenAPI document (npm run sdk:generate), never edited by hand',
};

/** Functions (`path name`) longer than the rule, and why. */
const LONG_FUNCTIONS: Record<string, string> = {
  'functions/render/engine/head-motion.ts warpInto':
    'hot loop: runs for every pixel of every new pose, the source points inlined (a call per pixel costs the render)',
};
/** Console components are one function each (a page's markup); the rule does not count them. */
const isConsoleComponent = (path: string) => path.startsWith('console/src/components/');

const keyOf = (where: string) => where.replace(/:\d+ /, ' ');

describe('the code keeps its shape', () => {
  it(`has no source file over ${MAX_FILE_LINES} lines outside the documented exceptions`, () => {
    const long = SOURCES.filter((path) => lineCount(path) > MAX_FILE_LINES && !LONG_FILES[path]).map((path) => `${path}: ${lineCount(path)} lines`);
    expect(long).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines outside the documented hot loops and console components`, () => {
    const long = SOURCES.filter((path) => !isConsoleComponent(path))
      .flatMap(functionSpans)
      .filter((span) => span.lines > MAX_FUNCTION_LINES && !LONG_FUNCTIONS[keyOf(span.where)])
      .map((span) => `${span.where}: ${span.lines} lines`);
    expect(long).toEqual([]);
  });

  it('lists no exception that the code no longer needs', () => {
    const longFunctions = new Set(
      SOURCES.flatMap(functionSpans)
        .filter((s) => s.lines > MAX_FUNCTION_LINES)
        .map((s) => keyOf(s.where)),
    );
    expect(Object.keys(LONG_FUNCTIONS).filter((key) => !longFunctions.has(key))).toEqual([]);
    expect(Object.keys(LONG_FILES).filter((path) => lineCount(path) <= MAX_FILE_LINES)).toEqual([]);
  });

  it('has no import cycle of values anywhere, and none of types in functions/ outside the domain', () => {
    expect(cyclesOf(importGraph(SOURCES, 'values'))).toEqual([]);
    const typeCycles = cyclesOf(importGraph(sourceFiles('functions')));
    const outsideDomain = typeCycles.filter((group) => !group.every((path) => path.startsWith('functions/domain/')));
    expect(outsideDomain.map((group) => group.join(' '))).toEqual([]);
  });

  it("names every class of error `…Error`, the domain's, the HTTP layer's and the tools' alike", () => {
    const misnamed = SOURCES.concat(sourceFiles('test'))
      .flatMap(errorClasses)
      .filter((where) => !where.endsWith('Error'));
    expect(misnamed).toEqual([]);
  });

  it('measures what it claims: a long function, a long file and a cycle are seen', () => {
    const spans = functionSpans('functions/render/engine/head-motion.ts');
    expect(spans.find((s) => s.where.endsWith(' warpInto'))!.lines).toBeGreaterThan(MAX_FUNCTION_LINES);
    expect(lineCount('sdk/typescript/src/generated/openapi.ts')).toBeGreaterThan(MAX_FILE_LINES);
    const domainErrors = errorClasses('functions/domain/errors.ts').map((where) => where.split(' ')[1]);
    expect(domainErrors).toEqual(expect.arrayContaining(['InvalidRequestError', 'NotFoundError', 'ConflictError', 'JobFailedError']));
    expect(errorClasses('functions/media/recording.ts').map((where) => where.split(' ')[1])).toEqual(['RecordingRejectedError']);
    const knot = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cyclesOf(knot)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
