/**
 * What a recipe page tells a host team to do, read from the page itself: the shell block of its
 * "## Copy it" section. Every line but the last prepares (mkdir, cp from the installed package,
 * npm install, a build); the last starts the receiver. The package test runs exactly these lines, so a page
 * that tells the user something that does not work fails the test command.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecipeName } from './run-recipe.ts';

export const RECIPE_PAGES: readonly RecipeName[] = [
  'node-crypto',
  'node-jose',
  'node-stripe',
  'python',
  'php',
  'go',
  'java',
];

export interface CopyInstruction {
  /** The shell lines that copy, install and build, in order, run from the user's project root. */
  prepare: string[];
  /** The line that starts the receiver, split into its words (`node receiver/node-jose/receiver.mjs`). */
  start: string[];
}

/** Reads the page from `docsDir` (the clone's docs/recipes/ or the installed package's). */
export function copyInstruction(docsDir: string, recipe: RecipeName): CopyInstruction {
  const page = readFileSync(join(docsDir, `${recipe}.md`), 'utf8');
  const section = /^## Copy it\n([\s\S]*?)(?=^## |$(?![\s\S]))/m.exec(page)?.[1];
  if (section === undefined) throw new Error(`${recipe}.md has no "## Copy it" section`);
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error(`${recipe}.md: its "## Copy it" section has no sh block`);
  const lines = block
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const last = lines.pop();
  if (last === undefined) throw new Error(`${recipe}.md: its "## Copy it" block is empty`);
  return { prepare: lines, start: last.split(/\s+/) };
}
