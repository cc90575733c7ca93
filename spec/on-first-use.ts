/**
 * A CommonJS package loaded when first asked for, not when the importing module loads: a test
 * worker that never parses YAML or compiles a contract schema does not pay for loading the library.
 */
import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/** A function that loads `specifier` on its first call and returns the same module after. */
export function onFirstUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireHere(specifier) as T);
}
