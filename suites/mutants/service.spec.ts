/** Service direction of the mutation matrix: every seeded fault of the reference service is caught by its clause. */
import { serviceDirection } from './index.ts';
import { declareVerdictTests } from './verdicts.ts';

declareVerdictTests(
  serviceDirection,
  (fault, clause) => `seeded fault ${fault} is caught by a test citing ${clause} (mutation matrix)`,
);
