/**
 * The recipes of other stacks than Node and Python (php, go, java) as a host team gets them: their page's
 * "## Copy it" lines run in a project with the packed package installed (the copies, and the build of Go
 * and Java), started with the page's own start line, and judged by that project's `npx ccs-conformance host`.
 * Each stack's toolchain comes from a Debian package .ci/run installs; a missing one fails with its name.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { userProject } from '../package/installed.ts';
import { exec } from '../package/tarball.ts';
import { copyInstruction } from './pages.ts';
import type { RecipeFrom, RecipeName } from './run-recipe.ts';

export type Stack = Extract<RecipeName, 'php' | 'go' | 'java'>;

/** Where the Java recipe finds Gson: Debian's libgoogle-gson-java (the page's classpath names it). */
export const GSON_JAR = '/usr/share/java/gson.jar';

function runs(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Undefined when the stack's toolchain is here; else the line the test fails with, naming the Debian packages. */
export function missingToolchain(stack: Stack): string | undefined {
  switch (stack) {
    case 'php':
      return runs('php', ['-r', 'exit(extension_loaded("openssl") ? 0 : 1);'])
        ? undefined
        : 'the php recipe needs php with openssl on PATH (Debian: php-cli; .ci/run installs it)';
    case 'go':
      return runs('go', ['version'])
        ? undefined
        : 'the go recipe needs go on PATH (Debian: golang-go; .ci/run installs it)';
    case 'java':
      return runs('javac', ['-version']) && runs('java', ['-version']) && existsSync(GSON_JAR)
        ? undefined
        : `the java recipe needs javac and java on PATH and Gson at ${GSON_JAR} ` +
            '(Debian: default-jdk-headless and libgoogle-gson-java; .ci/run installs them)';
  }
}

/**
 * Runs the page's copy lines (and build) in the worker's project with the packed package installed, and
 * gives where its receiver and `npx ccs-conformance` start from.
 */
export async function copiedAsThePageSays(
  stack: Stack,
): Promise<{ from: RecipeFrom; installSeconds: number; seconds: number }> {
  const asked = performance.now();
  const user = await userProject(); // packed and installed once per worker: the package tests share it
  const installSeconds = (performance.now() - asked) / 1000;
  const page = copyInstruction(join(user.installed, 'docs', 'recipes'), stack);
  const started = performance.now();
  for (const line of page.prepare) {
    const r = await exec('sh', ['-e', '-c', line], { cwd: user.project, env: user.env, deadlineMs: 180_000 });
    if (r.code !== 0) throw new Error(`${stack}.md: \`${line}\` exited ${r.code}\n${r.stdout}\n${r.stderr}`);
  }
  const [command, ...args] = page.start;
  return {
    from: {
      receiver: { command: command!, args, cwd: user.project },
      cli: { command: 'npx', args: ['ccs-conformance'], cwd: user.project },
      env: user.env,
    },
    installSeconds,
    seconds: (performance.now() - started) / 1000,
  };
}
