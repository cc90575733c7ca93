/**
 * Every check id the service suites give to check() (suites/shared/checks.ts): the ids the rows of
 * the service fault model (spec/faults/service.yaml) name. A self test keeps the two in agreement.
 */
export const SERVICE_CHECK_IDS: readonly string[] = [];
