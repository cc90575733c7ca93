/**
 * The signed payload of the user-facts GET (5.2.6, SIGN-6): there is no body, so "GET" + one
 * space + the request target (path and query exactly as on the wire, no HTTP version) takes its
 * place in the <t>.<payload> construction.
 */
import { ccsError } from '../spec/index.ts';

export function factsSigningPayload(requestTarget: string): string {
  if (typeof requestTarget !== 'string' || !requestTarget.startsWith('/') || /[\s]/.test(requestTarget)) {
    throw ccsError('PROTOCOL_REQUEST_TARGET_INVALID', { got: JSON.stringify(String(requestTarget).slice(0, 80)) });
  }
  return `GET ${requestTarget}`;
}
