/**
 * The seeded faults: each breaks exactly one clause of spec/clauses.yaml and nothing else, so the
 * mutation matrix can prove that the suite of that clause fails and every other suite still passes.
 * They are declared in the service fault model (spec/faults/service.yaml, `faults:`), the rows of which
 * name them; the code switches on them by name through faults.has(name), typed by ServiceFaultName.
 */
import { ccsError, SERVICE_FAULTS, areaOfClause, type SeededFaultOf, type ServiceFaultName } from '../spec/index.ts';

export interface FaultDefinition extends SeededFaultOf<ServiceFaultName> {
  /** The clause's area prefix, e.g. 'DELIV'. */
  area: string;
}

export const FAULTS: readonly FaultDefinition[] = Object.freeze(
  SERVICE_FAULTS.map((f) => ({ ...f, area: areaOfClause(f.clause) })),
);

const BY_NAME = new Map<string, FaultDefinition>(FAULTS.map((fault) => [fault.name, fault]));

/** Throws REFSVC_FAULT_UNKNOWN naming the unknown fault and listing the known ones. */
export function validateFaults(names: readonly string[]): ServiceFaultName[] {
  for (const name of names) {
    if (!BY_NAME.has(name)) {
      throw ccsError('REFSVC_FAULT_UNKNOWN', { fault: name, known: FAULTS.map((x) => x.name).join(', ') });
    }
  }
  return [...new Set(names)] as ServiceFaultName[];
}

/** The switch set a running service consults: one lookup per decision point. */
export class FaultSet {
  private readonly on: Set<ServiceFaultName>;
  constructor(names: readonly string[]) {
    this.on = new Set(validateFaults(names));
  }
  has(name: ServiceFaultName): boolean {
    return this.on.has(name);
  }
  list(): ServiceFaultName[] {
    return [...this.on];
  }
}
