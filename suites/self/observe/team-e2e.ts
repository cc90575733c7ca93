/**
 * A service team's own end-to-end tests, as `observe` meets them: they drive the service through
 * whatever it offers (here the reference service's driver API, called over plain HTTP as any client
 * would), never through the harness. Opens, saves, completes (contacts, then the profile that stays),
 * deletes and bulk deletes, then a second user deletes a contact and a third leaves a draft; between the profile's
 * completion and the deletes the demo's signing is rotated, its key in JWKS mode (SIGN-9), its secret in HMAC
 * mode with the previous one kept for the overlap (SIGN-14); last a sandbox of the demo
 * workspace, signing with its own secret or kid (SIGN-13, SIGN-10), has a conversation saved and completed.
 * The callbacks go to hostBaseUrl, where `observe` listens.
 */

import { CONTRACT } from '../../../protocol/index.ts';
import { HARNESS_SLACK_MS } from '../../../target/service/timing.ts';

/** The sandbox the day creates (a sandbox key starts with sb-, 2.1): observe binds its own secret to it. */
export const SANDBOX_KEY = 'sb-team';

export interface TeamRun {
  conversations: number[];
  keys: string[];
  /** JWKS mode: the kid the demo workspace signed with before its rotation and the one after. */
  rotation?: { kid: string; previousKid: string };
}

async function call(driverUrl: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(driverUrl + path, {
    method,
    headers: { 'content-type': 'application/json' },
    signal: AbortSignal.timeout(10_000),
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * The rotation comes once the host holds the document of before it: the host answered the first open's
 * facts GET (the user's facts are in effect), which it verified with the document under the old kid, so the
 * new kid shows to it as unknown (SIGN-9 reading: "refetch when kid is unknown"). The GET ends within its
 * 10 s timeout, scaled (FACTS-5), plus the harness's slack.
 */
async function rotate(driverUrl: string, user: string): Promise<TeamRun['rotation']> {
  const { timeScale } = (await call(driverUrl, 'GET', '/capabilities')) as { timeScale: number };
  const deadline = Date.now() + CONTRACT.factsTimeoutMs * timeScale + HARNESS_SLACK_MS;
  for (;;) {
    const facts = (await call(driverUrl, 'GET', `/workspaces/demo/users/${user}/facts`)) as { fetchedAt: unknown };
    if (facts.fetchedAt !== null) break;
    if (Date.now() > deadline) throw new Error(`the host never answered the facts GET of ${user}: no rotation`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return (await call(driverUrl, 'POST', '/workspaces/demo/jwks/rotate', {})) as TeamRun['rotation'];
}

/**
 * The signing mode of the day; in HMAC mode the sandbox has a secret of its own (SIGN-13) and the demo's
 * secret is rotated mid-day to `rotatedSecret` (SIGN-14).
 */
export type TeamSigning =
  { mode: 'hmac'; secret: string; rotatedSecret: string; sandboxSecret: string } | { mode: 'jwks' } | { mode: 'none' };

/**
 * An HMAC rotation as the driver offers it (PATCH /workspaces/{workspaceKey}): a new current secret, the
 * previous one kept valid for hosts during the overlap (5.2 "Rotation keeps the previous secret valid during
 * an overlap window"). Every callback signed from now on, the profile's later onComplete attempts included, is
 * made with either (SIGN-14 reading: which one is not shown).
 */
async function rotateSecret(driverUrl: string, signing: Extract<TeamSigning, { mode: 'hmac' }>): Promise<void> {
  const rotated = { mode: 'hmac', secret: signing.rotatedSecret, previousSecret: signing.secret };
  await call(driverUrl, 'PATCH', '/workspaces/demo', { signing: rotated });
}

/** Points the demo workspace at hostBaseUrl with the signing mode given, then plays the day's sessions. */
export async function playTeamTests(driverUrl: string, hostBaseUrl: string, signing: TeamSigning): Promise<TeamRun> {
  const own = signing.mode === 'hmac' ? { mode: 'hmac', secret: signing.secret } : signing;
  await call(driverUrl, 'PATCH', '/workspaces/demo', { hostBaseUrl, signing: own });
  const endUserHandle = `u-team-${Date.now()}`;
  const open = async (configEnd: string): Promise<number> => {
    const opened = await call(driverUrl, 'POST', '/workspaces/demo/conversations', { endUserHandle, configEnd });
    return (opened as { conversationId: number }).conversationId;
  };
  const c1 = await open('/contacts');
  const saved = (await call(driverUrl, 'POST', `/conversations/${c1}/turns`, {
    saves: [
      { configEnd: '/contacts', fields: { email: 'a@example.test', name: 'Ann' } },
      { configEnd: '/contacts', fields: { email: 'b@example.test', name: 'Bob' } },
    ],
  })) as { serviceKeys: string[] };
  await call(driverUrl, 'POST', `/conversations/${c1}/complete`, {});
  // a record that stays: the user's profile, completed and never deleted
  const c3 = await open('/profile');
  await call(driverUrl, 'POST', `/conversations/${c3}/turns`, {
    saves: [{ configEnd: '/profile', fields: { email: 'a@example.test', displayName: 'Ann' } }],
  });
  await call(driverUrl, 'POST', `/conversations/${c3}/complete`, {});
  // mid-day JWKS rotation: every callback signed from now on, the profile's later onComplete attempts
  // included, names the new kid (SIGN-9 reading)
  const rotation = signing.mode === 'jwks' ? await rotate(driverUrl, endUserHandle) : undefined;
  if (signing.mode === 'hmac') await rotateSecret(driverUrl, signing);
  const c2 = await open('/contacts');
  await call(driverUrl, 'POST', `/conversations/${c2}/delete`, { serviceKey: saved.serviceKeys[0] });
  await call(driverUrl, 'POST', `/conversations/${c2}/bulk-delete`, { configEnd: '/contacts' });
  await call(driverUrl, 'POST', `/conversations/${c2}/interrupt`, {});
  // a second user deletes a contact through the chat, and no scope delete follows it: what reads the record
  // back as config.deleted arrives races no later removal of it (STATE-7)
  const other = `${endUserHandle}-b`;
  const opened = await call(driverUrl, 'POST', '/workspaces/demo/conversations', {
    endUserHandle: other,
    configEnd: '/contacts',
  });
  const c4 = (opened as { conversationId: number }).conversationId;
  const kept = (await call(driverUrl, 'POST', `/conversations/${c4}/turns`, {
    saves: [{ configEnd: '/contacts', fields: { email: 'c@example.test', name: 'Cy' } }],
  })) as { serviceKeys: string[] };
  await call(driverUrl, 'POST', `/conversations/${c4}/delete`, { serviceKey: kept.serviceKeys[0] });
  await call(driverUrl, 'POST', `/conversations/${c4}/interrupt`, {});
  // a third user's profile stays a draft: saved, the conversation interrupted, never completed
  const drafted = await call(driverUrl, 'POST', '/workspaces/demo/conversations', {
    endUserHandle: `${endUserHandle}-c`,
    configEnd: '/profile',
  });
  const c5 = (drafted as { conversationId: number }).conversationId;
  await call(driverUrl, 'POST', `/conversations/${c5}/turns`, {
    saves: [{ configEnd: '/profile', fields: { email: 'd@example.test', displayName: 'Di' } }],
  });
  await call(driverUrl, 'POST', `/conversations/${c5}/interrupt`, {});
  const c6 = await playSandbox(driverUrl, hostBaseUrl, signing, endUserHandle);
  return { conversations: [c1, c3, c2, c4, c5, c6], keys: saved.serviceKeys, ...(rotation ? { rotation } : {}) };
}

/**
 * A sandbox of the demo workspace, pointed at the same listener, created after the demo's rotation so a
 * sandbox sharing its parent's new kid shows (SIGN-10): its own secret in HMAC mode (SIGN-13), its own kid
 * in JWKS mode; hookPath and classes are its parent's (HOOK-2). One conversation saves and completes.
 */
async function playSandbox(driverUrl: string, hostBaseUrl: string, signing: TeamSigning, user: string) {
  const own = signing.mode === 'hmac' ? { mode: 'hmac', secret: signing.sandboxSecret } : signing;
  const body = { workspaceKey: SANDBOX_KEY, parentWorkspaceKey: 'demo', hostBaseUrl, signing: own };
  await call(driverUrl, 'POST', '/workspaces', body);
  const opened = await call(driverUrl, 'POST', `/workspaces/${SANDBOX_KEY}/conversations`, {
    endUserHandle: `${user}-sb`,
    configEnd: '/contacts',
  });
  const c = (opened as { conversationId: number }).conversationId;
  await call(driverUrl, 'POST', `/conversations/${c}/turns`, {
    saves: [{ configEnd: '/contacts', fields: { email: 'e@example.test', name: 'Eve' } }],
  });
  await call(driverUrl, 'POST', `/conversations/${c}/complete`, {});
  return c;
}
