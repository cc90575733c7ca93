import { test, expect } from '@playwright/test';
import { CcsError } from '../../spec/errors.ts';

test('errors carry a stable code', () => {
  expect(new CcsError('SPEC_X', 'm').code).toBe('SPEC_X');
});
