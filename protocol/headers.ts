/** Reading request headers the way node and every framework may hand them over. */

export type HeaderBag = Record<string, string | string[] | undefined>;

export type HeaderRead = { kind: 'absent' } | { kind: 'one'; value: string } | { kind: 'many'; count: number };

/** A header by name, case-insensitively; a repeated header is reported, never joined. */
export function readHeader(headers: HeaderBag, name: string): HeaderRead {
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    if (Array.isArray(value)) values.push(...value);
    else values.push(value);
  }
  if (values.length === 0) return { kind: 'absent' };
  if (values.length > 1) return { kind: 'many', count: values.length };
  return { kind: 'one', value: values[0] as string };
}

/** The single value of a header, or undefined when absent or repeated. */
export function headerValue(headers: HeaderBag, name: string): string | undefined {
  const read = readHeader(headers, name);
  return read.kind === 'one' ? read.value : undefined;
}
