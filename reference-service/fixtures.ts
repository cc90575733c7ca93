/** Loads workspace fixtures (YAML or JSON) for the standalone service and tests. */
import { readFileSync } from 'node:fs';
import { CcsError, parseYaml } from '../spec/index.ts';
import type { WorkspaceFixture } from './model.ts';

export function loadWorkspaceFixture(file: string): WorkspaceFixture[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CcsError(
      'REFSVC_FIXTURE_UNREADABLE',
      `cannot read workspace fixture ${file}: ${(error as Error).message}`,
      { file },
    );
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (error) {
    throw new CcsError(
      'REFSVC_FIXTURE_INVALID',
      `workspace fixture ${file} is not valid YAML: ${(error as Error).message}`,
      { file },
    );
  }
  const list = (doc as { workspaces?: unknown } | null)?.workspaces;
  if (
    !Array.isArray(list) ||
    !list.every(
      (w) => typeof w === 'object' && w !== null && typeof (w as { workspaceKey?: unknown }).workspaceKey === 'string',
    )
  ) {
    throw new CcsError(
      'REFSVC_FIXTURE_INVALID',
      `workspace fixture ${file} must have a workspaces: list whose entries each have a workspaceKey`,
      { file },
    );
  }
  return list as WorkspaceFixture[];
}
