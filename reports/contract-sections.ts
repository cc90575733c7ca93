/**
 * Section headings of the host integration contract, to link a clause to its section.
 * The link base is CCS_CONTRACT_URL (e.g. the contract's address in your repository browser).
 * Unset, a section is plain text: the contract is not shipped in the package, and a report is opened
 * from the user's folder or from a CI artifact, where no relative path to it holds.
 * Anchors follow the GitHub heading slugs.
 */
import { readSettings } from '../spec/index.ts';
export const CONTRACT_SECTIONS: Record<string, string> = {
  '1': '1. What the service does',
  '2': '2. Resources and their fields',
  '2.1': '2.1 Handles and keys',
  '2.2': '2.2 Callback payloads (JSON object, content type application/json)',
  '2.3': '2.3 Stored record envelope (data API reads)',
  '2.4': '2.4 User-facts class',
  '3': '3. States and transitions',
  '4': '4. Endpoints',
  '4.1': '4.1 Routes on the host (called by the service)',
  '4.2': '4.2 Routes of the service (called by the host)',
  '5': '5. Authentication',
  '5.1': '5.1 Calls to the service',
  '5.2': '5.2 Callback signing (service to host)',
  '6': '6. Events',
  '7': '7. Errors',
  '8': '8. Limits',
  '9': '9. Versioning',
};

export function githubSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** A clause's section may read "2.2" or "2.2, 6": link the first one; no link without a base. */
export function sectionLink(section: string, base = readSettings().contractUrl): string | undefined {
  if (base === undefined) return undefined;
  const first =
    String(section)
      .split(/[,;\s]+/)
      .find(Boolean) ?? '';
  const heading = CONTRACT_SECTIONS[first] ?? CONTRACT_SECTIONS[first.split('.')[0] ?? ''];
  return heading ? `${base}#${githubSlug(heading)}` : base;
}
