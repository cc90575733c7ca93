/**
 * Host direction of the mutation matrix: every faulty variant of the reference host receiver is caught by its clause.
 */
import { hostDirection } from './index.ts';
import { declareVerdictTests } from './verdicts.ts';

declareVerdictTests(
  hostDirection,
  (fault, clause) => `faulty receiver ${fault} is caught by a test citing ${clause} (mutation matrix)`,
);
