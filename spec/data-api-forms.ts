/**
 * The forms of the data API that the contract leaves to each service (4.2: "Request body ... of the
 * write route beyond the envelope: not shown. Exact path form of a keyed write and how configEnd is
 * written inside the path (with or without slash): not shown"; UNSPEC-8, UNSPEC-9). A service target
 * declares them (`dataApi` of spec/targets/service-target.schema.json); every data API request of
 * the harness is written in the declared forms, and the reference service serves any of them. One
 * definition for both sides, so a request built here is read back here.
 *
 * configEnd in the path (UNSPEC-9), for the configEnds "/profile" and "/billing/invoice":
 *   without-slash  /endpoints/profile/data/{endUserHandle}       /endpoints/billing/invoice/data/...
 *   with-slash     /endpoints//profile/data/{endUserHandle}      /endpoints//billing/invoice/data/...
 *   encoded        /endpoints/%2Fprofile/data/{endUserHandle}    /endpoints/%2Fbilling%2Finvoice/data/...
 * without-slash and with-slash write each segment of configEnd as a path segment (percent-encoded as
 * one, so an inner slash stays a separator); encoded writes the whole configEnd, its leading and
 * inner slashes included, as one percent-encoded segment.
 *
 * Keyed write (UNSPEC-9): `path` sends POST .../data/{endUserHandle}/{serviceKey}; `body` sends
 * POST .../data/{endUserHandle} with the serviceKey in the body member named by keyField.
 *
 * Write body (UNSPEC-8): `data` sends {"data": {<fields>}} (a keyed write in the body adds the key
 * member beside data: {"serviceKey": "k-1", "data": {...}}); `bare` sends the field map itself
 * ({<fields>}; a keyed write in the body puts the key member beside the fields, and the service
 * takes it as the key, never as a field of the record).
 */
import { readFileSync } from 'node:fs';
import { parseYaml } from './yaml-cache.ts';
import { ccsError, CcsError } from './errors.ts';

export const CONFIG_END_FORMS = ['without-slash', 'with-slash', 'encoded'] as const;
export const KEYED_WRITE_FORMS = ['path', 'body'] as const;
export const WRITE_BODY_FORMS = ['data', 'bare'] as const;

export type ConfigEndForm = (typeof CONFIG_END_FORMS)[number];
export type KeyedWriteForm = (typeof KEYED_WRITE_FORMS)[number];
export type WriteBodyForm = (typeof WRITE_BODY_FORMS)[number];

export interface DataApiForms {
  configEnd: ConfigEndForm;
  keyedWrite: KeyedWriteForm;
  /** The body member carrying the serviceKey of a keyed write when keyedWrite is `body`. */
  keyField: string;
  writeBody: WriteBodyForm;
}

/** The forms a target that declares none is written in (the harness's forms before they could be declared). */
export const DEFAULT_DATA_API_FORMS: Readonly<DataApiForms> = Object.freeze({
  configEnd: 'without-slash',
  keyedWrite: 'path',
  keyField: 'serviceKey',
  writeBody: 'data',
});

/** The `dataApi` member of a target file as written (every field optional). */
export interface DataApiFormsInput {
  configEnd?: string;
  keyedWrite?: string;
  keyField?: string;
  writeBody?: string;
}

function oneOf<T extends string>(values: readonly T[], v: unknown, field: string, name: string): T | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T;
  throw ccsError('TARGET_FIELD_INVALID', {
    field,
    problem: `${name}: ${field}: must be one of ${JSON.stringify(values)}`,
  });
}

/**
 * The declared forms with the defaults filled in. The values are checked again here (the target
 * schema checks them first) and so is what the schema cannot say: a key member named `data` beside
 * the `data` member of the body. A problem is a CcsError TARGET_FIELD_INVALID naming the field.
 */
export function resolveDataApiForms(input: DataApiFormsInput | undefined, name = 'target'): DataApiForms {
  const i = input ?? {};
  const forms: DataApiForms = {
    configEnd: oneOf(CONFIG_END_FORMS, i.configEnd, 'dataApi.configEnd', name) ?? DEFAULT_DATA_API_FORMS.configEnd,
    keyedWrite: oneOf(KEYED_WRITE_FORMS, i.keyedWrite, 'dataApi.keyedWrite', name) ?? DEFAULT_DATA_API_FORMS.keyedWrite,
    keyField: i.keyField ?? DEFAULT_DATA_API_FORMS.keyField,
    writeBody: oneOf(WRITE_BODY_FORMS, i.writeBody, 'dataApi.writeBody', name) ?? DEFAULT_DATA_API_FORMS.writeBody,
  };
  if (typeof forms.keyField !== 'string' || forms.keyField.length === 0) {
    throw ccsError('TARGET_FIELD_INVALID', {
      field: 'dataApi.keyField',
      problem: `${name}: dataApi.keyField: must be a non-empty string`,
    });
  }
  if (forms.keyedWrite === 'body' && forms.writeBody === 'data' && forms.keyField === 'data') {
    throw ccsError('TARGET_FIELD_INVALID', {
      field: 'dataApi.keyField',
      problem: `${name}: dataApi.keyField: must not be "data" when dataApi.writeBody is data (the key member would replace the fields)`,
    });
  }
  return forms;
}

const segment = (s: string): string => encodeURIComponent(s);

/** configEnd ("/profile", with its leading slash) as written between /endpoints/ and /data/. */
export function configEndInPath(configEnd: string, form: ConfigEndForm): string {
  const withSlash = configEnd.startsWith('/') ? configEnd : `/${configEnd}`;
  if (form === 'encoded') return segment(withSlash);
  const inner = withSlash.replace(/^\/+/, '').split('/').map(segment).join('/');
  return form === 'with-slash' ? `/${inner}` : inner;
}

/**
 * The data API path of a record or of a user's records:
 * /api/{workspaceKey}/endpoints/{configEnd}/data/{endUserHandle}[/{serviceKey}].
 */
export function dataApiPath(
  workspaceKey: string,
  configEnd: string,
  endUserHandle: string,
  form: ConfigEndForm,
  serviceKey?: string,
): string {
  const tail = serviceKey === undefined ? '' : `/${segment(serviceKey)}`;
  return `/api/${segment(workspaceKey)}/endpoints/${configEndInPath(configEnd, form)}/data/${segment(endUserHandle)}${tail}`;
}

/** One reading of a data API path: the configEnd it names (with its leading slash), the handle and the key if any. */
export interface DataPathParts {
  configEnd: string;
  endUserHandle: string;
  serviceKey?: string;
}

function decoded(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

function configEndOf(raw: string[], form: ConfigEndForm): string | undefined {
  if (form === 'encoded') {
    if (raw.length !== 1) return undefined;
    const v = decoded(raw[0]!);
    return v !== undefined && v.startsWith('/') && v.length > 1 ? v : undefined;
  }
  const segments = form === 'with-slash' ? (raw[0] === '' ? raw.slice(1) : undefined) : raw;
  if (!segments || segments.length === 0) return undefined;
  const values = segments.map(decoded);
  // A segment that is empty or holds an encoded slash is not written in this form.
  if (values.some((v) => v === undefined || v === '' || v.includes('/'))) return undefined;
  return `/${values.join('/')}`;
}

/**
 * The readings of what follows /endpoints/ in a data API path (still percent-encoded, no query)
 * in one configEnd form: configEnd, then the segment `data`, then the handle and maybe a key. A
 * configEnd that itself holds a segment `data` can be read more than one way: every reading is
 * returned, the shortest configEnd first, and the caller keeps the one that names a class.
 */
export function parseDataApiTail(tail: string, form: ConfigEndForm): DataPathParts[] {
  const raw = tail.split('/');
  const out: DataPathParts[] = [];
  for (let i = 0; i < raw.length; i++) {
    const rest = raw.length - i - 1;
    if (raw[i] !== 'data' || rest < 1 || rest > 2) continue;
    const configEnd = configEndOf(raw.slice(0, i), form);
    const handle = decoded(raw[i + 1]!);
    const key = rest === 2 ? decoded(raw[i + 2]!) : undefined;
    if (configEnd === undefined || !handle || (rest === 2 && !key)) continue;
    out.push({ configEnd, endUserHandle: handle, ...(key !== undefined ? { serviceKey: key } : {}) });
  }
  return out;
}

/**
 * The body of a write of these fields in the declared forms; `serviceKey` for a keyed write whose key goes in the body.
 */
export function writeBodyOf(
  fields: Record<string, unknown>,
  forms: DataApiForms,
  serviceKey?: string,
): Record<string, unknown> {
  const key = serviceKey !== undefined && forms.keyedWrite === 'body' ? { [forms.keyField]: serviceKey } : {};
  return forms.writeBody === 'data' ? { ...key, data: fields } : { ...fields, ...key };
}

/**
 * A write body read back in the declared forms: the fields and, when keyedWrite is `body`, the key
 * its key member carries. undefined when the body is malformed for these forms (DATA-7): not a
 * JSON object, no `data` object in the `data` form, or a key member that is not a string.
 */
export function readWriteBody(
  body: unknown,
  forms: DataApiForms,
): { fields: Record<string, unknown>; serviceKey?: string } | undefined {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(body)) return undefined;
  let key: string | undefined;
  if (forms.keyedWrite === 'body' && body[forms.keyField] !== undefined) {
    if (typeof body[forms.keyField] !== 'string') return undefined;
    key = body[forms.keyField] as string;
  }
  if (forms.writeBody === 'data')
    return isObject(body.data) ? { fields: body.data, ...(key !== undefined ? { serviceKey: key } : {}) } : undefined;
  const fields = { ...body };
  if (forms.keyedWrite === 'body') delete fields[forms.keyField];
  return { fields, ...(key !== undefined ? { serviceKey: key } : {}) };
}

const CONFIG_END_WORDS: Record<ConfigEndForm, string> = {
  'without-slash': 'without its slash (/endpoints/profile/data/...)',
  'with-slash': 'with its slash (/endpoints//profile/data/...)',
  encoded: 'with its slash percent-encoded (/endpoints/%2Fprofile/data/...)',
};

/**
 * The forms in words, for a report header and for hints: "configEnd without its slash (...); keyed write ...; write
 * body ...".
 */
export function describeDataApiForms(f: DataApiForms): string {
  const keyed =
    f.keyedWrite === 'path'
      ? 'keyed write with the serviceKey in the path (POST .../data/{endUserHandle}/{serviceKey})'
      : `keyed write with the serviceKey in the body member ${JSON.stringify(f.keyField)} (POST .../data/{endUserHandle})`;
  const body = f.writeBody === 'data' ? 'write body {"data": {...}}' : 'write body the bare field map {...}';
  return `configEnd ${CONFIG_END_WORDS[f.configEnd]}; ${keyed}; ${body}`;
}

/** A short name of the forms, for project names: "with-slash+body+bare". */
export function dataApiFormsName(f: DataApiForms): string {
  return `${f.configEnd}+${f.keyedWrite}+${f.writeBody}`;
}

/** Every combination of the three forms (12), keyField at its default unless `keyFieldOf` names another. */
export function allDataApiForms(
  keyFieldOf: (f: Omit<DataApiForms, 'keyField'>) => string = () => DEFAULT_DATA_API_FORMS.keyField,
): DataApiForms[] {
  const out: DataApiForms[] = [];
  for (const configEnd of CONFIG_END_FORMS) {
    for (const keyedWrite of KEYED_WRITE_FORMS) {
      for (const writeBody of WRITE_BODY_FORMS)
        out.push({ configEnd, keyedWrite, writeBody, keyField: keyFieldOf({ configEnd, keyedWrite, writeBody }) });
    }
  }
  return out;
}

/**
 * The forms a service target file declares, for a report that has only the file's path (its loader,
 * which names a bad field, has run before); undefined when the file cannot be read as one.
 */
export function dataApiFormsOfTargetFile(path: string): DataApiForms | undefined {
  try {
    const doc = parseYaml(readFileSync(path, 'utf8')) as { dataApi?: DataApiFormsInput } | null;
    return resolveDataApiForms(doc?.dataApi);
  } catch {
    return undefined;
  }
}

/** The forms from their JSON (project metadata, CCS_DATA_API_FORMS); undefined when absent or not forms. */
export function parseDataApiForms(text: string | undefined): DataApiForms | undefined {
  if (!text) return undefined;
  try {
    return resolveDataApiForms(JSON.parse(text) as DataApiFormsInput);
  } catch {
    return undefined;
  }
}
