/**
 * A service team's own end-to-end tests, as `observe` meets them: they drive the service through
 * whatever it offers (here the reference service's driver API, called over plain HTTP as any client
 * would), never through the harness. Opens, saves, completes (contacts, then the profile that stays),
 * deletes and bulk deletes, then a second user deletes a contact and a third leaves a draft; the callbacks
 * go to hostBaseUrl, where `observe` listens.
 */

export interface TeamRun {
  conversations: number[];
  keys: string[];
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

export type TeamSigning = { mode: 'hmac'; secret: string } | { mode: 'jwks' } | { mode: 'none' };

/** Points the demo workspace at hostBaseUrl with the signing mode given, then plays a user's two sessions. */
export async function playTeamTests(driverUrl: string, hostBaseUrl: string, signing: TeamSigning): Promise<TeamRun> {
  await call(driverUrl, 'PATCH', '/workspaces/demo', { hostBaseUrl, signing });
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
  return { conversations: [c1, c3, c2, c4, c5], keys: saved.serviceKeys };
}
