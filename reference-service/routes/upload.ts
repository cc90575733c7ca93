/**
 * POST /api/{workspaceKey}/upload and GET .../upload/status/{id} (4.2, 7, 8): UPLOAD-1..9.
 * Streams the multipart body: the request size is decided from Content-Length when present and
 * by counting bytes as they arrive; a file's size by counting its bytes. Nothing is buffered but
 * the manifest.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { CONTRACT } from '../../protocol/index.ts';
import { authorize } from '../auth.ts';
import type { ServiceContext } from '../context.ts';
import { sendError } from '../http-errors.ts';

const MB = 1_000_000; // UPLOAD-3 reading: MB = 1,000,000 bytes
const FILE_MAX = CONTRACT.uploadFileMaxBytes;
const REQUEST_MAX = CONTRACT.uploadRequestMaxBytes;
const MANIFEST_MAX = 1 * MB;

class UploadRejection extends Error {
  constructor(
    readonly status: 400 | 413,
    reason: string,
  ) {
    super(reason);
  }
}

interface Manifest {
  sources: string[];
  classes: Array<Record<string, unknown>>;
}

/** Reference manifest format (UNSPEC-5): { "sources": ["a.ts", ...], "classes"?: [...] }. */
export function parseManifest(text: string): Manifest | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const m = v as Record<string, unknown>;
  if (!Array.isArray(m.sources) || !m.sources.every((s) => typeof s === 'string')) return undefined;
  if (
    m.classes !== undefined &&
    (!Array.isArray(m.classes) || !m.classes.every((c) => typeof c === 'object' && c !== null))
  )
    return undefined;
  return { sources: m.sources as string[], classes: (m.classes ?? []) as Array<Record<string, unknown>> };
}

export function registerUpload(app: FastifyInstance, ctx: ServiceContext): void {
  const f = ctx.faults;
  // UPLOAD-3 and UPLOAD-4 at both edges (the seeded faults move one edge by a byte).
  const fileMax = f.has('upload-file-25mb-plus-1-accepted')
    ? FILE_MAX + 1
    : f.has('upload-file-25mb-rejected')
      ? FILE_MAX - 1
      : FILE_MAX;
  const requestMax = f.has('upload-request-30mb-plus-1-accepted')
    ? REQUEST_MAX + 1
    : f.has('upload-request-30mb-rejected')
      ? REQUEST_MAX - 1
      : REQUEST_MAX;

  app.post<{ Params: { workspaceKey: string } }>('/api/:workspaceKey/upload', async (req, reply) => {
    const auth = authorize(ctx, req, req.params.workspaceKey, 'api-key', f.has('upload-any-api-key'));
    if (!auth.ok) return sendError(req, reply, auth.status, ctx.faults);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > requestMax) {
      reply.header('Connection', 'close');
      return sendError(req, reply, 413, ctx.faults); // UPLOAD-4, decided before reading
    }
    if (!req.isMultipart()) return sendError(req, reply, 400, ctx.faults);
    let total = 0;
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
    };
    req.raw.on('data', onData);
    const files = new Set<string>();
    let manifestText: string | undefined;
    try {
      for await (const part of req.parts()) {
        if (total > requestMax) throw new UploadRejection(413, 'request over 30 MB');
        if (part.type === 'file') {
          const isManifest = part.fieldname === 'manifest';
          // UPLOAD-6 broken on purpose by upload-octet-stream-refused.
          if (!isManifest && f.has('upload-octet-stream-refused') && part.mimetype === 'application/octet-stream')
            throw new UploadRejection(400, 'octet-stream refused');
          const chunks: Buffer[] = [];
          let size = 0;
          for await (const chunk of part.file as AsyncIterable<Buffer>) {
            size += chunk.length;
            if (total > requestMax) throw new UploadRejection(413, 'request over 30 MB');
            if (size > fileMax) throw new UploadRejection(413, 'source file over 25 MB');
            if (isManifest) {
              if (size > MANIFEST_MAX) throw new UploadRejection(400, 'manifest too large');
              chunks.push(chunk);
            }
          }
          if (isManifest) manifestText = Buffer.concat(chunks).toString('utf8');
          else files.add(part.filename || part.fieldname);
        } else if (part.fieldname === 'manifest') {
          // @fastify/multipart hands a field sent as application/json over already parsed.
          manifestText = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        }
      }
      if (total > requestMax) throw new UploadRejection(413, 'request over 30 MB');
    } catch (error) {
      const status =
        error instanceof UploadRejection
          ? error.status
          : (error as { statusCode?: number }).statusCode === 413
            ? 413
            : 400;
      if (status === 413) reply.header('Connection', 'close');
      return sendError(req, reply, status, ctx.faults);
    } finally {
      req.raw.off('data', onData);
    }
    // UPLOAD-1 broken on purpose by upload-missing-manifest-accepted: no manifest reads as an empty one.
    if (manifestText === undefined && f.has('upload-missing-manifest-accepted')) manifestText = '{"sources":[]}';
    if (manifestText === undefined) return sendError(req, reply, 400, ctx.faults); // UPLOAD-1
    const manifest = parseManifest(manifestText);
    if (!manifest) return sendError(req, reply, 400, ctx.faults); // UPLOAD-1
    if (!manifest.sources.every((s) => files.has(s)) && !f.has('upload-missing-file-accepted'))
      return sendError(req, reply, 400, ctx.faults); // UPLOAD-2
    const id = randomUUID();
    // FACTS-12: a FACTS class without callback is rejected at push (shown in the status, UNSPEC-7).
    const bad = manifest.classes.find(
      (c) => c.kind === 'FACTS' && (typeof c.callback !== 'string' || c.callback.length === 0),
    );
    ctx.uploads.set(
      id,
      bad
        ? {
            id,
            workspaceKey: auth.ws.workspaceKey,
            state: 'rejected',
            reason: `FACTS class ${String(bad.configEnd ?? '')} has no callback`,
          }
        : { id, workspaceKey: auth.ws.workspaceKey, state: 'accepted' },
    );
    return reply.code(202).send({ id });
  });

  app.get<{ Params: { workspaceKey: string; id: string } }>(
    '/api/:workspaceKey/upload/status/:id',
    async (req, reply) => {
      const auth = authorize(ctx, req, req.params.workspaceKey, 'api-key', f.has('upload-status-any-key'));
      if (!auth.ok) return sendError(req, reply, auth.status, ctx.faults);
      const entry = ctx.uploads.get(req.params.id);
      if (!entry || (entry.workspaceKey !== auth.ws.workspaceKey && !ctx.faults.has('upload-status-other-workspace')))
        return sendError(req, reply, 404, ctx.faults); // UPLOAD-8
      if (f.has('upload-status-own-404')) return sendError(req, reply, 404, ctx.faults); // UPLOAD-7 broken on purpose
      return reply
        .code(200)
        .send(
          entry.reason
            ? { id: entry.id, state: entry.state, reason: entry.reason }
            : { id: entry.id, state: entry.state },
        );
    },
  );
}
