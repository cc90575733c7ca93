import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const specDir = dirname(fileURLToPath(import.meta.url));

/** Absolute path of a file in spec/, resolved from this module's location (not the cwd). */
export function specPath(file: string): string {
  return join(specDir, file);
}

/**
 * Absolute path of a documentation file the package ships (docs/recipes/node-stripe.md): docs/ sits
 * beside spec/ in a clone and beside dist/ in the installed package. undefined when absent.
 */
export function packageDocPath(file: string): string | undefined {
  for (const root of [join(specDir, '..'), join(specDir, '..', '..')]) {
    const path = join(root, file);
    if (existsSync(path)) return path;
  }
  return undefined;
}
