// The contract as data: the documents of spec/ and their compiled validators.
export { CcsError, ccsError, errorAnswer, isCcsError, isCcsErrorOf } from './errors.ts';
export type { CcsErrorCode, CcsErrorPrefix, CcsErrorParams } from './errors.ts';
export { ERROR_CODES, ERROR_PREFIXES } from './error-codes.ts';
export type { Level, Side, Clause, ValidationResult, Spec } from './types.ts';
export { loadSpec } from './loader.ts';
export { packageDocPath, specPath } from './paths.ts';
export { harnessVersion, clauseCatalogueVersion } from './version.ts';
export {
  readSettings,
  reportDirFrom,
  runJournalDir,
  DEFAULT_REPORT_DIR,
  DEFAULT_HOST_MODEL_RUNS,
  JOURNAL_DIR,
  SETTING_NAMES,
} from './settings.ts';
export type { Settings } from './settings.ts';
export { LEVELS, SIDES, readOpenApi, readClauses } from './documents.ts';
export { parseYaml, parseYamlCached } from './yaml-cache.ts';
export {
  CLAUSE_ID,
  CLAUSE_TAG,
  isClauseIdShape,
  clauseOfTag,
  clauseTags,
  toClauseId,
  areaOfClause,
} from './clause-id.ts';
export type { ClauseTag, MarkerTag } from './clause-id.ts';
export type { ClauseId } from './generated/clauses.ts';
export { CLAUSE_IDS } from './generated/clauses.ts';
export type {
  ServiceCheckId,
  HostCheckId,
  ServiceFaultName,
  HostFaultName,
  SeededFaultOf,
} from './generated/fault-models.ts';
export { SERVICE_CHECK_IDS, HOST_CHECK_IDS, SERVICE_FAULTS, HOST_FAULTS } from './generated/fault-models.ts';
export type * from './generated/contract.ts';
export type * from './generated/driver.ts';
export type * from './generated/service-target.ts';
export type * from './generated/host-target.ts';
export { SERVICE_TARGET_SCHEMA, HOST_TARGET_SCHEMA, configValidator, dottedField } from './config-schema.ts';
export type { ConfigSchema, ConfigProblem } from './config-schema.ts';
export { schemaNodes, nodesWith, clauseReferences, compileDocumentSchemas, checkExamples } from './walk.ts';
export type { Located } from './walk.ts';
export {
  CONFIG_END_FORMS,
  KEYED_WRITE_FORMS,
  WRITE_BODY_FORMS,
  DEFAULT_DATA_API_FORMS,
  resolveDataApiForms,
  configEndInPath,
  dataApiPath,
  parseDataApiTail,
  writeBodyOf,
  readWriteBody,
  describeDataApiForms,
  dataApiFormsName,
  allDataApiForms,
  parseDataApiForms,
  dataApiFormsOfTargetFile,
} from './data-api-forms.ts';
export type {
  ConfigEndForm,
  KeyedWriteForm,
  WriteBodyForm,
  DataApiForms,
  DataApiFormsInput,
  DataPathParts,
} from './data-api-forms.ts';
export {
  REDACTED,
  SECRET_NAMES,
  Redactor,
  isSecretName,
  loadSecrets,
  processRedactor,
  registerSecret,
  redactText,
} from './redact.ts';
export { EVIDENCE_ATTACHMENT } from './evidence.ts';
export {
  CHECKS_ATTACHMENT,
  DRIVER_PART_RULE,
  checkHead,
  checkWords,
  hintWords,
  isCheckRecord,
  parseCheckRecords,
} from './checks.ts';
export { loadFaultModel, rowsOfCheck, faultModelRow, hintOfCheck } from './fault-model.ts';
export type { CheckHint, FaultModel, FaultModelRow, SeededFault } from './fault-model.ts';
export type { CheckOutcome, CheckRecord } from './checks.ts';
export type { Evidence, EvidenceItem, RequestEvidence, TimelineSpec, TimelineWindow } from './evidence.ts';
