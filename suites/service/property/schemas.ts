/**
 * Request schemas for the property suites, taken from spec/openapi.yaml and narrowed where the
 * contract leaves validity to the target (never widened): organizationId only when the target
 * file names a valid one (EMBED-4 reading), referentKeys empty in valid bodies (known keys are
 * target data; unknown ones are EMBED-5 cases).
 */
import { loadSpec } from '../../../spec/index.ts';
import { inlineRefs } from './compile.ts';
import type { Schema } from './validate.ts';

export async function specSchema(name: string): Promise<Schema> {
  const spec = await loadSpec();
  return inlineRefs(spec.schema(name) as Schema, (ref) => spec.resolveRef(ref) as Schema);
}

export async function embedTokenSchema(organizationId?: { valid: string }): Promise<Schema> {
  const s = structuredClone(await specSchema('EmbedTokenRequest')) as Record<string, any>;
  const props = s.properties as Record<string, any>;
  if (organizationId) props.organizationId = { const: organizationId.valid };
  else delete props.organizationId;
  const oc = props.openingContext as Record<string, any> | undefined;
  if (oc?.properties?.referentKeys) oc.properties.referentKeys = { ...oc.properties.referentKeys, maxItems: 0 };
  return s;
}

export async function endUserHandleSchema(): Promise<Schema> {
  return specSchema('EndUserHandle');
}
