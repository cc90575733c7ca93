#!/usr/bin/env node
// Entry point of the `ccs-conformance` command. From the published package it runs the compiled
// JavaScript beside it (dist/cli/main.js); in a clone of the repository it loads the TypeScript
// sources through tsx.
import { existsSync } from 'node:fs';

const compiled = new URL('./main.js', import.meta.url);
let main;
if (existsSync(compiled)) {
  ({ main } = await import(compiled.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('./main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
