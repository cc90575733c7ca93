/** Loads workspace fixtures (YAML or JSON) for the standalone service and tests. */
import { readFileSync } from 'node:fs';
import { ccsError, parseYaml } from '../spec/index.ts';
import type { WorkspaceFixture } from './model.ts';

export function loadWorkspaceFixture(file: string): WorkspaceFixture[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw ccsError('REFSVC_FIXTURE_UNREADABLE', { file, reason: (error as Error).message });
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (error) {
    throw ccsError('REFSVC_FIXTURE_INVALID', {
      file,
      problem: `fixture ${file} is not valid YAML: ${(error as Error).message}`,
    });
  }
  const list = (doc as { workspaces?: unknown } | null)?.workspaces;
  if (
    !Array.isArray(list) ||
    !list.every(
      (w) => typeof w === 'object' && w !== null && typeof (w as { workspaceKey?: unknown }).workspaceKey === 'string',
    )
  ) {
    throw ccsError('REFSVC_FIXTURE_INVALID', {
      file,
      problem: `fixture ${file} must have a workspaces: list whose entries each have a workspaceKey`,
    });
  }
  return list as WorkspaceFixture[];
}
