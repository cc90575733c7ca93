import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const specDir = dirname(fileURLToPath(import.meta.url));

/** Absolute path of a file in spec/, resolved from this module's location (not the cwd). */
export function specPath(file: string): string {
  return join(specDir, file);
}
