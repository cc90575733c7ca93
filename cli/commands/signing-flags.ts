/**
 * The signing flags `mock-host` and `observe` share: the mode the workspaces are declared in
 * (`--signing none|hmac|jwks`, else what the secret or JWKS flags imply), and the HMAC secrets, each for
 * every workspace (`--hmac-secret-file FILE`) or bound to one (`--hmac-secret-file WORKSPACE=FILE`):
 * secrets are per workspace and per environment (SIGN-13), and a workspace given two has rotated
 * (SIGN-14: either is accepted during the overlap).
 */
import { readFileSync } from 'node:fs';
import type { SigningConfig } from '../../mock-host/index.ts';
import { ccsError } from '../../spec/index.ts';
import type { FlagSpec, Parsed } from '../args.ts';

export const SIGNING_FLAGS: FlagSpec[] = [
  { name: 'signing', kind: 'string', value: 'MODE', help: 'none, hmac or jwks: the mode the workspaces are in' },
  {
    name: 'hmac-secret-file',
    kind: 'list',
    value: '[WS=]FILE',
    help: 'an HMAC secret, for every workspace or for WS (repeat: a rotation, another workspace)',
  },
  { name: 'jwks-url', kind: 'string', value: 'URL', help: 'the JWKS document of the service' },
];

const MODES = ['none', 'hmac', 'jwks'] as const;
type Mode = (typeof MODES)[number];

export interface SigningFlags {
  /** The route signing of the mock host; undefined when no mode was declared (presence is not judged). */
  signing?: SigningConfig;
  /** HMAC secrets bound to a workspace key by `WS=FILE` (each also in signing's list, so the host verifies). */
  byWorkspace: Record<string, string[]>;
  /** The secret files by name, for a rerun line (never their content). */
  files: string[];
}

/** `WS=FILE`: a workspace key has no '/' and comes before the first '='. */
const BOUND = /^([^=/\\]+)=(.+)$/;

function readSecret(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code ?? 'error';
    throw ccsError('CLI_FILE_UNREADABLE', { flag: 'hmac-secret-file', file, errno });
  }
  const secret = text.replace(/\r?\n$/, '');
  if (!secret) throw ccsError('CLI_FILE_EMPTY', { flag: 'hmac-secret-file', file });
  return secret;
}

/** Reads the signing flags and the secret files they name; throws a usage error of the CLI room. */
export function signingFlags(values: Parsed['flags']): SigningFlags {
  const files = (values['hmac-secret-file'] as string[] | undefined) ?? [];
  const jwksUrl = typeof values['jwks-url'] === 'string' ? values['jwks-url'] : undefined;
  const declared = values.signing as string | undefined;
  if (declared !== undefined && !(MODES as readonly string[]).includes(declared))
    throw ccsError('CLI_FLAG_INVALID', { flag: 'signing', rule: 'none, hmac or jwks', got: `"${declared}"` });
  if (files.length && jwksUrl !== undefined) {
    throw ccsError('CLI_FLAGS_EXCLUSIVE', {
      flag: 'hmac-secret-file',
      other: 'jwks-url',
      why: 'a workspace signs in one mode (SIGN-2)',
    });
  }
  const implied: Mode | undefined = files.length ? 'hmac' : jwksUrl !== undefined ? 'jwks' : undefined;
  const mode = (declared as Mode | undefined) ?? implied;
  if (declared !== undefined && implied !== undefined && declared !== implied)
    throw ccsError('CLI_FLAGS_EXCLUSIVE', {
      flag: 'signing',
      other: implied === 'hmac' ? 'hmac-secret-file' : 'jwks-url',
      why: `--signing ${declared} says the workspaces do not sign in ${implied} mode`,
    });
  if (mode === 'hmac' && !files.length)
    throw ccsError('CLI_FLAG_NEEDS_ANOTHER', { flag: 'signing hmac', needs: '--hmac-secret-file FILE' });
  if (mode === 'jwks' && jwksUrl === undefined)
    throw ccsError('CLI_FLAG_NEEDS_ANOTHER', { flag: 'signing jwks', needs: '--jwks-url URL' });
  const byWorkspace: Record<string, string[]> = {};
  const secrets: string[] = [];
  for (const f of files) {
    const bound = BOUND.exec(f);
    const secret = readSecret(bound ? bound[2]! : f);
    secrets.push(secret);
    if (bound) (byWorkspace[bound[1]!] ??= []).push(secret);
  }
  const signing: SigningConfig | undefined =
    mode === 'hmac'
      ? { mode: 'hmac', secrets }
      : mode === 'jwks'
        ? { mode: 'jwks', jwksUrl: jwksUrl! }
        : mode === 'none'
          ? { mode: 'none' }
          : undefined;
  return { ...(signing ? { signing } : {}), byWorkspace, files };
}
