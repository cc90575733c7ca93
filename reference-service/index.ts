/** The reference service: the embedded default target, its driver API and its seeded faults. */
export { startReferenceService } from './server.ts';
export type { ReferenceService, ReferenceServiceOptions } from './server.ts';
export { FAULTS, validateFaults } from './faults.ts';
export type { FaultDefinition } from './faults.ts';
export { loadWorkspaceFixture } from './fixtures.ts';
export type { WorkspaceFixture, ServiceLogLine, ClassDef, ClassField, ToolDef, SigningConfig } from './model.ts';
export { CAPABILITIES, SMALL_SCOPE_MAX } from './driver.ts';
