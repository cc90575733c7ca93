/**
 * The one registry of error codes (in the manner of fastify's lib/errors.js): every code a CcsError,
 * an answer of the mock host's admin API or a line of the clause reporter carries is declared here once,
 * with its message template (the reporter's CLAUSE_UNKNOWN, a harness defect docs/ci.md names, is no
 * error of a room and keeps its name).
 * `{name}` in a template is a parameter the throw site passes (a name with no space); `details` names
 * the parameters also kept in `error.details` (`name?`: only when the site has one). A code's prefix is
 * its room (ERROR_PREFIXES). Codes never change: reports, tests and users match on them.
 * A template never names a secret: a parameter is a field, a path, a count or an already redacted text.
 */
export const ERROR_PREFIXES = {
  SPEC: { rooms: ['spec/'], means: 'the contract documents and their loader' },
  PROTOCOL: { rooms: ['protocol/'], means: 'a call of the contract algorithms with a bad argument' },
  MOCKHOST: { rooms: ['mock-host/'], means: 'a script, route, wait or admin call of the mock host' },
  REFSVC: { rooms: ['reference-service/'], means: 'the reference service: its options, fixtures, faults' },
  TARGET: {
    rooms: ['spec/', 'fixtures/', 'target/', 'suites/'],
    means: 'what the user gave: a target file, a CCS_* setting, the target itself (read wherever it is read)',
  },
  REPORT: { rooms: ['reports/'], means: 'a report or expected-outcomes file' },
  CLI: { rooms: ['cli/'], means: 'the command line' },
  MUTANTS: { rooms: ['suites/mutants/'], means: 'the mutation matrix' },
  FORMS: { rooms: ['suites/forms/'], means: 'the data API forms run' },
  HOST: { rooms: ['suites/host/'], means: 'the host direction harness' },
  PROPERTY: { rooms: ['suites/service/property/'], means: 'the schema-to-arbitrary compiler' },
  MODEL: {
    rooms: ['suites/service/stateful/', 'suites/host/stateful/'],
    means: 'a model-based test: its transition table and its commands',
  },
} as const;

export const ERROR_CODES = {
  CLI_FILE_EMPTY: { message: '--{flag} {file}: the file is empty', details: ['file'] },
  CLI_FILE_UNREADABLE: { message: '--{flag} {file}: cannot read ({errno})', details: ['file'] },
  CLI_FLAG_INVALID: { message: '--{flag} must be {rule}, got {got}', details: ['flag'] },
  CLI_FLAG_NEEDS_ANOTHER: { message: '--{flag} needs {needs}' },
  CLI_FLAGS_EXCLUSIVE: { message: '--{flag} and --{other} are exclusive: {why}' },
  CLI_FROM_FILE_INVALID: { message: '--from {file}: {problem}', details: ['file'] },
  CLI_INJECT_EVENT_UNKNOWN: { message: '--inject {inject}: {event} is not a lifecycle event ({known})' },
  CLI_INJECT_ITEM_INVALID: {
    message: '--inject {inject}: "{item}" is not a status (100-599), reset, close or hold:MS',
  },
  CLI_INJECT_SHAPE_INVALID: { message: '--inject must be EVENT=A,B,... (e.g. onComplete=503,503), got "{got}"' },
  CLI_USAGE: { message: '{problem}' },
  CLI_VECTORS_SOURCE_INVALID: { message: '{file}: {problem}', details: ['file'] },

  FORMS_REPORT_MISSING: {
    message: '{path} is missing: the data API forms run did not run (see the forms-run project)',
  },

  HOST_SERVICE_SIDE_UNREACHABLE: { message: 'the shared service side at {url} {problem}', details: ['url'] },
  HOST_HARNESS_DEFECT: { message: 'harness: {problem}' },
  HOST_VALUE_SCHEMA: { message: 'harness: the value classes cannot be derived from spec/openapi.yaml: {problem}' },

  MOCKHOST_ADMIN_BAD_REQUEST: { message: '{problem}' },
  MOCKHOST_ENTRY_UNKNOWN: { message: 'no journal entry {id} (never recorded, dropped or reset)' },
  MOCKHOST_REPLAY_FAILED: { message: '{problem}' },
  MOCKHOST_REPLAY_NO_TARGET: { message: 'replay needs a forward target: start the mock host with --forward-to URL' },
  MOCKHOST_REPLAY_TARGET: { message: 'replay supports http targets, not {protocol}' },
  MOCKHOST_ROUTE_INVALID: { message: '{field} {rule}', details: ['field'] },
  MOCKHOST_SCRIPT_INVALID: { message: '{field} {rule}', details: ['field?'] },
  MOCKHOST_WAIT_INVALID: { message: 'waitFor needs a timeoutMs >= 0, got {timeoutMs}' },
  MOCKHOST_WAIT_TIMEOUT: {
    message:
      'waited {timeoutMs} ms for {count} request(s) matching {filter}; {arrived} arrived{arrivals}. Last requests in the journal: {recent}',
    details: ['matched', 'filter'],
  },

  MUTANTS_FAULT_UNKNOWN: { message: 'unknown fault(s): {unknown} (known: {known})' },
  MUTANTS_REPORT_MISSING: { message: '{path} is missing: the matrix did not run (see the mutants-run project)' },
  MUTANTS_RESULTS_INVALID: { message: 'results.json: {problem}' },

  MODEL_ROW_UNKNOWN: { message: 'no row {row} in the transition table' },
  MODEL_ROW_DECIDER_MISSING: { message: 'row {row} counts only where the service decided {decision}: say who did' },
  PROPERTY_SCHEMA_UNSUPPORTED: { message: '{problem}' },

  PROTOCOL_CONVERSATION_ID_INVALID: { message: 'conversationId must be an integer (2.1), got {got}' },
  PROTOCOL_COUNT_INVALID: { message: 'count must be a non-negative integer, got {count}' },
  PROTOCOL_DATE_INVALID: { message: '{problem}' },
  PROTOCOL_DEDUPER_CONFIG_INVALID: { message: '{option} must be {rule}, got {got}' },
  PROTOCOL_DELIVERY_ID_INVALID: { message: 'firstSeen needs the X-Service-Delivery-Id value' },
  PROTOCOL_END_USER_HANDLE_INVALID: { message: 'endUserHandle must be a non-empty string (2.1)' },
  PROTOCOL_EVENT_INVALID: { message: 'event must be a non-empty string' },
  PROTOCOL_JWKS_FETCH_FAILED: { message: 'JWKS fetch from {url} {problem}' },
  PROTOCOL_JWKS_INVALID: { message: 'JWKS document from {url} {problem} (SIGN-9)' },
  PROTOCOL_JWKS_URL_INVALID: { message: 'JwksCache needs an absolute http(s) url, got {got}' },
  PROTOCOL_KEYS_INVALID: { message: 'verifyJws needs `keys`: a JWKS document { keys: [...] } or a JwksCache' },
  PROTOCOL_KID_INVALID: { message: 'signJws needs a non-empty kid (SIGN-7)' },
  PROTOCOL_NO_SECRETS: { message: 'verifyHmac needs at least one secret in `secrets`' },
  PROTOCOL_PAGE_SIZE_INVALID: { message: 'pageSize must be a positive integer, got {pageSize}' },
  PROTOCOL_RAW_BODY_REQUIRED: {
    message: 'verifyCallback needs rawBody as the raw body bytes (a Buffer or Uint8Array), never parsed JSON (HOST-4)',
  },
  PROTOCOL_REQUEST_TARGET_INVALID: {
    message:
      'the facts request target must be the path and query as on the wire, starting with "/" and without spaces (SIGN-6), got {got}',
  },
  PROTOCOL_SECRET_INVALID: { message: 'secrets[{index}] must be a string or bytes, got {type}' },
  PROTOCOL_T_INVALID: { message: 't must be a non-negative integer of unix seconds (5.2.4), got {t}' },
  PROTOCOL_VERIFIER_CONFIG_INVALID: { message: "config.mode must be 'hmac', 'jwks' or 'none', got {mode}" },
  PROTOCOL_WORKSPACE_ID_INVALID: { message: 'workspaceId must be a non-empty string (FACTS-3)' },

  REFSVC_DATA_API_FORMS_INVALID: { message: '{problem}', details: ['field'] },
  REFSVC_FAULT_UNKNOWN: { message: "unknown seeded fault '{fault}'; known faults: {known}", details: ['fault'] },
  REFSVC_FIXTURE_INVALID: { message: 'workspace {problem}', details: ['file?', 'workspaceKey?'] },
  REFSVC_FIXTURE_UNREADABLE: { message: 'cannot read workspace fixture {file}: {reason}', details: ['file'] },
  REFSVC_TIME_SCALE_INVALID: { message: 'timeScale must be a positive number, got {timeScale}' },

  REPORT_CLAUSES_UNREADABLE: { message: '{problem}' },
  REPORT_DOCS_REF_UNRESOLVED: { message: 'generate-docs: cannot resolve {ref} in a target schema', details: ['ref'] },
  REPORT_EXPECTED_INVALID: { message: '{name}: {problem}', details: ['field'] },
  REPORT_SCHEMA_INVALID: {
    message: 'conformance report does not match reports/conformance.schema.json:\n  {list}',
    details: ['problems'],
  },
  REPORT_UNREADABLE: { message: 'cannot read the report {file}: {reason}' },
  REPORT_WRITE_FAILED: { message: 'could not write {file}' },

  SPEC_CLAUSE_UNKNOWN: { message: '{id} is not a clause id of spec/clauses.yaml', details: ['id'] },
  SPEC_CODEGEN_REF_UNSUPPORTED: { message: 'generate: unsupported $ref {ref} in {file}', details: ['file', 'ref'] },
  SPEC_FAULT_MODEL_INVALID: { message: '{problem}', details: ['file?', 'row?'] },
  SPEC_LOAD_FAILED: { message: '{problem}', details: ['file?', 'field?', 'id?', 'operationId?'] },
  SPEC_NO_CHROMIUM: {
    message: 'chromium is not installed: apt-get install -y chromium (the page tests and screenshots need it)',
  },
  SPEC_OPERATION_UNKNOWN: {
    message: 'no operation "{operationId}" in spec/openapi.yaml{orDriver}',
    details: ['operationId'],
  },
  SPEC_REF_UNRESOLVED: { message: '{doc}: {problem}', details: ['ref?'] },
  SPEC_SCHEMA_INVALID: { message: '{problem}', details: ['where?'] },
  SPEC_SCHEMA_UNKNOWN: { message: 'no schema "{name}" in spec/openapi.yaml components.schemas', details: ['name'] },
  SPEC_WEBHOOK_UNKNOWN: { message: 'no webhook "{name}" in spec/openapi.yaml (known: {known})', details: ['name'] },

  TARGET_CAPABILITY_MISSING: { message: '{reason}' },
  TARGET_DRIVER_ERROR: { message: 'driver {method} {path} answered {status}: {said}', details: ['status', 'body?'] },
  TARGET_DRIVER_ANSWER_INVALID: { message: "the driver's {call} answered {got}, not {expected}" },
  TARGET_FIELD_INVALID: { message: '{problem}', details: ['field'] },
  TARGET_FILE_UNPARSEABLE: { message: '{name}: not valid YAML or JSON: {reason}' },
  TARGET_FILE_UNREADABLE: { message: '{name}: cannot read the target file ({errno})' },
  TARGET_KEY_READ_FAILED: { message: 'read of a key answered {status}' },
  TARGET_NO_DRIVER: { message: 'the target has no driver {problem}' },
  TARGET_NO_FACTS: { message: 'this workspace has no FACTS class (WorkspaceOptions.facts is false)' },
  TARGET_PRECONDITION_FAILED: { message: 'precondition: {what}: expected {expected}, got {seen}{hint}' },
  TARGET_REQUEST_FAILED: { message: '{method} {path}: {reason}' },
  TARGET_REQUEST_TIMEOUT: { message: '{method} {path}: no answer within {timeoutMs} ms' },
} as const satisfies Record<string, { message: string; details?: readonly string[] }>;

export type CcsErrorPrefix = keyof typeof ERROR_PREFIXES;
export type CcsErrorCode = keyof typeof ERROR_CODES;

/** A template built with `+` is no literal type, so its parameters would go unchecked: it fails here. */
const everyTemplateIsALiteral: { [C in CcsErrorCode]: string extends (typeof ERROR_CODES)[C]['message'] ? never : C } =
  Object.fromEntries(Object.keys(ERROR_CODES).map((c) => [c, c])) as { [C in CcsErrorCode]: C };
void everyTemplateIsALiteral;

/** A code whose prefix is no room's fails here, at `npm run typecheck`. */
const everyCodeHasARoom: Record<CcsErrorCode, `${CcsErrorPrefix}_${string}`> = Object.fromEntries(
  Object.keys(ERROR_CODES).map((c) => [c, c]),
) as { [C in CcsErrorCode]: C };
void everyCodeHasARoom;

/** `{name}` parameters of a template: names without a space, so a literal `{ keys: [...] }` is text. */
type Placeholders<T extends string> = T extends `${string}{${infer P}}${infer Rest}`
  ? (P extends '' | `${string} ${string}` ? never : P) | Placeholders<Rest>
  : never;
type Entry<C extends CcsErrorCode> = (typeof ERROR_CODES)[C];
type DetailNames<C extends CcsErrorCode> =
  Entry<C> extends { details: readonly (infer D extends string)[] } ? D : never;
type Required<D> = D extends `${string}?` ? never : D;
type Optional<D> = D extends `${infer N}?` ? N : never;
type Shown = string | number;

/** What a throw site of `code` passes: every template parameter, and the details the registry names. */
export type CcsErrorParams<C extends CcsErrorCode> = { [K in Placeholders<Entry<C>['message']>]: Shown } & {
  [K in Exclude<Required<DetailNames<C>>, Placeholders<Entry<C>['message']>>]: unknown;
} & { [K in Exclude<Optional<DetailNames<C>>, Placeholders<Entry<C>['message']>>]?: unknown };

export type CcsErrorArgs<C extends CcsErrorCode> = keyof CcsErrorParams<C> extends never ? [] : [CcsErrorParams<C>];

/** The message of `code` with its parameters filled in, and the details the registry keeps. */
export function renderError(
  code: CcsErrorCode,
  params: Record<string, unknown> = {},
): { message: string; details: Record<string, unknown> | undefined } {
  const entry: { message: string; details?: readonly string[] } = ERROR_CODES[code];
  const message = entry.message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
  if (!entry.details) return { message, details: undefined };
  const details: Record<string, unknown> = {};
  for (const d of entry.details) {
    const name = d.replace(/\?$/, '');
    if (params[name] !== undefined) details[name] = params[name];
  }
  return { message, details };
}
