/**
 * One project per worker with the packed tarball installed, on the oldest Node the package supports
 * (the machine's own Node may be older than `engines`): what the pages, links, commands and recipe
 * tests run, as a user would, from that project's folder with `npx ccs-conformance`.
 */
import { join } from 'node:path';
import { envWithNode, installInto, nodeBinDir, packedOnce, TESTED_NODE_MAJORS, type Packed } from './tarball.ts';

export interface UserProject {
  packed: Packed;
  /** The user's project folder (its package.json, node_modules/). */
  project: string;
  /** The installed package: node_modules/ccs-conformance of the project. */
  installed: string;
  /** A user's shell: the tested Node first on PATH, none of our own CCS_* or Playwright variables. */
  env: NodeJS.ProcessEnv;
}

let installing: Promise<UserProject> | undefined;

export function userProject(): Promise<UserProject> {
  installing ??= (async () => {
    const [packed, bin] = await Promise.all([packedOnce(), nodeBinDir(TESTED_NODE_MAJORS[0])]);
    // npm reads its cache first: the recipes' `npm install jose@6` and `stripe@23` come from it.
    const env = envWithNode(bin, { NODE_OPTIONS: '', npm_config_prefer_offline: 'true' });
    const { project } = await installInto(packed, 'user-project-pages', env);
    return { packed, project, installed: join(project, 'node_modules', 'ccs-conformance'), env };
  })();
  return installing;
}
