/** One read of a stored record by key from the service's data API (section 2.3), the token sent, never shown. */
import { dataApiPath, type ConfigEndForm } from '../../spec/index.ts';

export interface ReadBackOptions {
  /** The service's base_url: the data API is {base_url}/api/{workspaceKey}/endpoints/{configEnd}/data/... */
  baseUrl: string;
  /** The Bearer token, read when a read is made (it may come into being while observing). */
  readonly token: string;
  /** Each read's deadline (ms). */
  timeoutMs?: number;
}

/** Where a record is read: the data API path's parts (section 2.3). */
export interface Where {
  workspaceKey: string;
  configEnd: string;
  endUserHandle: string;
  serviceKey: string;
}

export interface Read {
  status: number;
  json?: unknown;
}

/** One read, asked again once when the connection fails (a loaded machine, a restarted keep-alive socket). */
export async function read(o: ReadBackOptions, n: Where, form: ConfigEndForm): Promise<Read> {
  try {
    return await readOnce(o, n, form);
  } catch {
    return readOnce(o, n, form);
  }
}

async function readOnce(o: ReadBackOptions, n: Where, form: ConfigEndForm): Promise<Read> {
  const path = dataApiPath(n.workspaceKey, n.configEnd, n.endUserHandle, form, n.serviceKey);
  const res = await fetch(o.baseUrl.replace(/\/+$/, '') + path, {
    headers: { authorization: `Bearer ${o.token}`, accept: 'application/json' },
    signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
  });
  const text = await res.text();
  try {
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  } catch {
    return { status: res.status };
  }
}
