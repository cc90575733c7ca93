/** The reference service's JWKS document (5.2). */
import { test, expect } from '@playwright/test';
import { clauseTags } from '../../../spec/index.ts';
import { s, stagePerTest } from './routes-stage.ts';

stagePerTest();

test(
  'the JWKS document serves two ES256 keys with different kids (SIGN-9 SIGN-10)',
  { tag: clauseTags('SIGN-9', 'SIGN-10') },
  async () => {
    const r = await s.api('GET', '/.well-known/service/jwks.json');
    expect(r.status).toBe(200);
    expect(r.json.keys).toHaveLength(2);
    for (const k of r.json.keys) {
      expect(k.kty).toBe('EC');
      expect(k.crv).toBe('P-256');
      expect(k.d).toBeUndefined();
    }
    expect(r.json.keys[0].kid).not.toBe(r.json.keys[1].kid);
  },
);
