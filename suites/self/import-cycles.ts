/**
 * Import cycles among our files: the graph is every static import and re-export (`import type` too,
 * which ties two files as much for a reader), resolved per file. A cycle is a strongly connected set of
 * two or more files, or a file importing itself (Tarjan's algorithm).
 */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Specifiers of a file's static imports and re-exports; `import('...')` at run time is not one. */
export function staticImports(source: string): string[] {
  const found: string[] = [];
  const re = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'"();]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (let m = re.exec(source); m; m = re.exec(source)) found.push(m[1]!);
  return found;
}

/**
 * Specifiers a file loads when it runs: static imports but `import type` and `export type` (erased), and
 * `import('...')`.
 */
export function loadedImports(source: string): string[] {
  const found: string[] = [];
  const re = /^\s*(?:import|export)\s+(?!type[\s{])(?:[^'"();]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (let m = re.exec(source); m; m = re.exec(source)) found.push(m[1]!);
  return [...found, ...dynamicImports(source)];
}

/** Specifiers of `import('...')` calls with a literal specifier. */
export function dynamicImports(source: string): string[] {
  const found: string[] = [];
  const re = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (let m = re.exec(source); m; m = re.exec(source)) found.push(m[1]!);
  return found;
}

export function importCycles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}
