import { existsSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import YAML from 'yaml';
import { readFileSync } from 'node:fs';
import {
  checkExamples,
  clauseReferences,
  compileDocumentSchemas,
  loadSpec,
  nodesWith,
  specPath,
} from '../../../spec/index.ts';
import { oasErrors } from './oas-schema.ts';

const driverPresent = existsSync(specPath('driver.openapi.yaml'));
const raw = (file: string): unknown => YAML.parse(readFileSync(specPath(file), 'utf8'), { maxAliasCount: -1 });

test.describe('spec/openapi.yaml and spec/driver.openapi.yaml as documents', () => {
  test('spec/openapi.yaml validates against the official OpenAPI 3.1 schema', () => {
    expect(oasErrors(raw('openapi.yaml'))).toEqual([]);
  });

  test('the OpenAPI 3.1 check rejects a broken document (the check can fail)', () => {
    const doc = raw('openapi.yaml') as { paths: Record<string, unknown> };
    doc.paths['/broken'] = { get: { responses: 'none' } };
    expect(oasErrors(doc).length).toBeGreaterThan(0);
  });

  test('spec/driver.openapi.yaml, when present, validates against the official OpenAPI 3.1 schema', () => {
    test.skip(!driverPresent, 'spec/driver.openapi.yaml is not there yet');
    expect(oasErrors(raw('driver.openapi.yaml'))).toEqual([]);
  });

  test('every schema of spec/openapi.yaml compiles in ajv strict mode (2020-12)', () => {
    expect(compileDocumentSchemas('openapi.yaml')).toBeGreaterThan(40);
  });

  test('the loaded spec compiles every operation and webhook of spec/openapi.yaml on its first use', () => {
    const spec = loadSpec();
    const ids = Object.values(spec.openapi.paths ?? {}).flatMap((item) =>
      Object.values(item ?? {}).flatMap((op) =>
        op && typeof op === 'object' && 'operationId' in op && typeof op.operationId === 'string'
          ? [op.operationId]
          : [],
      ),
    );
    expect(ids.length).toBeGreaterThan(5);
    for (const id of ids) expect(spec.documentedStatuses(id).length, id).toBeGreaterThan(0);
    const hooks = Object.keys(spec.openapi.webhooks ?? {});
    expect(hooks.length).toBeGreaterThan(5);
    for (const name of hooks) expect(() => spec.validateWebhook(name, {}), name).not.toThrow();
  });

  test('every schema of spec/driver.openapi.yaml, when present, compiles in ajv strict mode (2020-12)', () => {
    test.skip(!driverPresent, 'spec/driver.openapi.yaml is not there yet');
    expect(compileDocumentSchemas('driver.openapi.yaml')).toBeGreaterThan(0);
  });

  test('every example of spec/openapi.yaml validates against its schema', () => {
    const { checked, failures } = checkExamples('openapi.yaml');
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(15);
  });

  test('every example of spec/driver.openapi.yaml, when present, validates against its schema', () => {
    test.skip(!driverPresent, 'spec/driver.openapi.yaml is not there yet');
    expect(checkExamples('driver.openapi.yaml').failures).toEqual([]);
  });

  test('every x-clauses reference of both documents resolves to a clause of spec/clauses.yaml', () => {
    const spec = loadSpec();
    const docs: Array<[string, unknown]> = [['spec/openapi.yaml', spec.openapi]];
    if (spec.driver) docs.push(['spec/driver.openapi.yaml', spec.driver]);
    const unresolved: string[] = [];
    let count = 0;
    for (const [label, doc] of docs) {
      for (const ref of clauseReferences(doc)) {
        count++;
        if (!spec.clause(ref.value)) unresolved.push(`${label}${ref.pointer}: ${ref.value}`);
      }
    }
    expect(unresolved).toEqual([]);
    expect(count).toBeGreaterThan(50);
  });

  test('every x- extension of spec/openapi.yaml names the clauses it encodes', () => {
    const spec = loadSpec();
    const missing: string[] = [];
    const visit = (node: unknown, pointer: string): void => {
      if (Array.isArray(node)) {
        node.forEach((v, i) => visit(v, `${pointer}/${i}`));
        return;
      }
      if (node === null || typeof node !== 'object') return;
      const obj = node as Record<string, unknown>;
      for (const [key, value] of Object.entries(obj)) {
        if (key.startsWith('x-') && key !== 'x-clauses') {
          const inside = value !== null && typeof value === 'object' && 'x-clauses' in (value as object);
          if (!inside && !('x-clauses' in obj)) missing.push(`${pointer}/${key}`);
        }
        visit(value, `${pointer}/${key}`);
      }
    };
    visit(spec.openapi, '#');
    expect(missing).toEqual([]);
  });

  test('every UNSPECIFIED clause is referenced by an x-unspecified node of spec/openapi.yaml', () => {
    const spec = loadSpec();
    // Items that have no place in an HTTP description would be listed here with a reason; none today.
    const notRepresented: Record<string, string> = {};
    const referenced = new Set<string>();
    for (const { value } of nodesWith(spec.openapi, 'x-unspecified')) {
      expect(value['x-unspecified']).toBe(true);
      for (const id of (value['x-clauses'] as string[] | undefined) ?? []) referenced.add(id);
    }
    const unspecified = spec.clauses.filter((c) => c.level === 'UNSPECIFIED').map((c) => c.id);
    expect(unspecified.length).toBeGreaterThan(0);
    expect(unspecified.filter((id) => !referenced.has(id) && !(id in notRepresented))).toEqual([]);
  });

  test('every x-unspecified node cites an UNSPECIFIED clause', () => {
    const spec = loadSpec();
    const bad = nodesWith(spec.openapi, 'x-unspecified')
      .filter(
        ({ value }) =>
          !((value['x-clauses'] as string[] | undefined) ?? []).some((id) => spec.clause(id)?.level === 'UNSPECIFIED'),
      )
      .map(({ pointer }) => pointer);
    expect(bad).toEqual([]);
  });
});
