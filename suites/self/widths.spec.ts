import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { ROOT, sourceFiles } from './source-files.ts';

/**
 * Layout rules the formatter cannot keep (CONTRIBUTING): a code file holds one purpose in at most
 * 300 lines, and no line is wider than the print width, 120, except where a string, template or
 * regular-expression literal makes it so (the formatter never breaks a literal). Comments are not
 * wrapped by the formatter: they are reflowed by hand.
 */
const MAX_LINES = 300;
const PRINT_WIDTH = 120;

/** Our code files but generated ones (spec/generated/, written by `npm run generate`). */
function codeFiles(): string[] {
  return sourceFiles(ROOT).filter((f) => !relative(ROOT, f).startsWith(join('spec', 'generated')));
}

/** The 1-based lines that hold a part of a literal the formatter keeps whole. */
function literalLines(text: string): Set<number> {
  const lines = new Set<number>();
  const lineOf = (pos: number): number => ts.getLineAndCharacterOfPosition(sourceFile, pos).line + 1;
  const sourceFile = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false);
  const mark = (start: number, end: number): void => {
    for (let l = lineOf(start); l <= lineOf(Math.max(start, end - 1)); l++) lines.add(l);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteral(node) || ts.isRegularExpressionLiteral(node)) {
      mark(node.getStart(sourceFile), node.getEnd());
    }
    node.forEachChild(visit);
  };
  sourceFile.forEachChild(visit);
  return lines;
}

test('no code file is longer than 300 lines (layout)', () => {
  const long = codeFiles()
    .map((f) => ({ file: relative(ROOT, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > MAX_LINES)
    .map((f) => `${f.file}: ${f.lines} lines`);
  expect(long, `split by topic, at most ${MAX_LINES} lines each`).toEqual([]);
});

test('no code line is wider than 120 characters but for a literal the formatter keeps (layout)', () => {
  const wide: string[] = [];
  for (const f of codeFiles()) {
    const text = readFileSync(f, 'utf8');
    const literals = literalLines(text);
    text.split('\n').forEach((line, i) => {
      if (line.length > PRINT_WIDTH && !literals.has(i + 1)) wide.push(`${relative(ROOT, f)}:${i + 1}`);
    });
  }
  expect(wide, `lines over ${PRINT_WIDTH} characters (reflow comments by hand)`).toEqual([]);
});
