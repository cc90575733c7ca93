/**
 * Multipart bodies for the upload route. The manifest format is not shown (UNSPEC-5): the parts
 * below follow the reference's documented form (a `manifest` JSON part { sources: [...] } and one
 * part per source file named by its filename); a target with another format names it in its
 * target file (left to the framework).
 */
import type { MultipartPart } from '../fixtures.ts';

export function manifestPart(sources: string[]): MultipartPart {
  // A plain form field (no part Content-Type): some multipart parsers turn a JSON-typed field into an object.
  return { name: 'manifest', content: JSON.stringify({ sources }) };
}

export function sourcePart(filename: string, content: MultipartPart['content']): MultipartPart {
  return { name: filename, filename, contentType: 'application/octet-stream', content };
}

/** A small valid upload: a manifest and the one file it references (UPLOAD-6). */
export function validUpload(): MultipartPart[] {
  return [manifestPart(['main.ts']), sourcePart('main.ts', '// test-only source\nexport const answer = 42;\n')];
}

/**
 * The push id of an upload answer, when the target says one. The body is not shown (UNSPEC-6): read, never asserted.
 */
export function pushIdOf(json: unknown, headers: Record<string, string>): string | undefined {
  if (json && typeof json === 'object') {
    const o = json as Record<string, unknown>;
    for (const k of ['id', 'pushId', 'uploadId'])
      if (typeof o[k] === 'string' || typeof o[k] === 'number') return String(o[k]);
  }
  const loc = headers.location;
  if (loc) return loc.split('/').filter(Boolean).pop();
  return undefined;
}
