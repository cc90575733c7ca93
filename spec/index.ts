// The contract as data: the documents of spec/ and their compiled validators.
export { CcsError, isCcsError } from './errors.ts';
export type { Level, Side, Clause, ValidationResult, Spec } from './types.ts';
export { loadSpec } from './loader.ts';
export { specPath } from './paths.ts';
export { harnessVersion, clauseCatalogueVersion } from './version.ts';
export { readSettings, reportDirFrom, DEFAULT_REPORT_DIR, SETTING_NAMES } from './settings.ts';
export type { Settings } from './settings.ts';
export { LEVELS, SIDES, CLAUSE_ID } from './documents.ts';
export { schemaNodes, nodesWith, clauseReferences, compileDocumentSchemas, checkExamples } from './walk.ts';
export type { Located } from './walk.ts';
