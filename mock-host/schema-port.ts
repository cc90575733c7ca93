/**
 * The schema verdict of a callback body, from spec/ (the contract's webhooks as JSON Schema).
 * Loaded once per process; every mock host shares the compiled validators. When spec/ cannot be
 * loaded the mock host still records and answers; each schema verdict then says why it is missing.
 */
import { loadSpec } from '../spec/index.ts';

export type SchemaValidator = (name: string, body: unknown) => { valid: boolean; errors: string[] };

let loaded: SchemaValidator | undefined;

export async function loadSchemaValidator(): Promise<SchemaValidator> {
  if (loaded) return loaded;
  try {
    const spec = await Promise.resolve(loadSpec());
    loaded = (name: string, body: unknown) => {
      const r = spec.validateWebhook(name, body);
      return { valid: r.valid, errors: [...r.errors] };
    };
    return loaded;
  } catch (error) {
    const why = `spec/ could not be loaded, no schema verdict: ${(error as Error).message}`;
    return () => ({ valid: false, errors: [why] });
  }
}
