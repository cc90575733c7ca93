/**
 * A reproducible curl line for a request the harness sent (failures print it): credentials are
 * replaced by shell variables ($CCS_API_KEY ...) so the line can be pasted after exporting them.
 * The builder is shared with the host direction (suites/shared/curl.ts).
 */
import { curlLine as sharedCurlLine, type CurlRequest } from '../../shared/index.ts';
import { isSecretName, redactText } from '../../../spec/index.ts';

export interface CurlInput {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: CurlRequest['body'];
  secretHeaders?: readonly string[];
}

export function curlLine(r: CurlInput): string {
  const { secretHeaders, ...rest } = r;
  return sharedCurlLine({ ...rest, isSecretHeader: (name) => isSecretName(name, secretHeaders), scrub: redactText });
}
