import { test, expect } from '@playwright/test';
import { join } from 'node:path';
import { cli, FIXTURES } from './helpers.ts';

test('--help of the command and of run, report and mutants exits 0 and lists the options', async () => {
  const top = await cli(['--help']);
  expect(top.code).toBe(0);
  for (const c of ['run', 'host', 'mock-host', 'reference-service', 'report', 'mutants'])
    expect(top.stdout).toContain(`  ${c}`);
  const [run, report, mutants] = await Promise.all([
    cli(['run', '--help']),
    cli(['report', '--help']),
    cli(['mutants', '--help']),
  ]);
  expect(run.code).toBe(0);
  for (const f of [
    '--target FILE',
    '--fault NAME',
    '--grep CLAUSE-ID',
    '--area AREA',
    '--seed N',
    '--workers N',
    '--reporter R',
    '--shard i/n',
    '--require-all',
    '--expected FILE',
    '--report-dir DIR',
    '--time-scale X',
  ])
    expect(run.stdout).toContain(f);
  expect(report.code).toBe(0);
  expect(report.stdout).toContain('--merge');
  expect(mutants.code).toBe(0);
  expect(mutants.stdout).toContain('mutation matrix');
});

const usageCases: Array<[string, string[], RegExp]> = [
  ['an unknown flag', ['run', '--bogus'], /unknown flag '--bogus'/],
  ['a bad --shard', ['run', '--shard', '5/4'], /--shard must be i\/n/],
  ['a --shard that is no fraction', ['run', '--shard', 'two'], /--shard must be i\/n/],
  ['a flag without its value', ['run', '--seed'], /'--seed' needs a value/],
  ['a seed that is no integer', ['run', '--seed', '1.5'], /--seed must be an integer/],
  ['--workers 0', ['run', '--workers', '0'], /--workers must be a positive integer/],
  ['a --time-scale above 1', ['run', '--time-scale', '2'], /--time-scale: must be a number in \(0, 1\], got "2"/],
  ['a --time-scale of 0', ['run', '--time-scale', '0'], /--time-scale: must be a number in \(0, 1\], got "0"/],
  ['an unknown clause in --grep', ['run', '--grep', 'NOPE-1'], /--grep NOPE-1: not a clause id/],
  ['an unknown --area', ['run', '--area', 'NOPE'], /--area NOPE: unknown area/],
  [
    '--fault with --target',
    ['run', '--target', join(FIXTURES, 'target.yaml'), '--fault', 'x'],
    /--fault applies to the embedded reference service only/,
  ],
  [
    'a target file that fails validation',
    ['run', '--target', join(FIXTURES, 'target-bad.yaml')],
    /target-bad\.yaml: service\.baseUrl: must be an absolute http\(s\) URL/,
  ],
  [
    'a target file with a bad data API form',
    ['run', '--target', join(FIXTURES, 'target-bad-data-api.yaml')],
    /target-bad-data-api\.yaml: dataApi\.keyedWrite: must be one of \["path","body"\]/,
  ],
  ['a missing target file', ['run', '--target', join(FIXTURES, 'no-such-target.yaml')], /no-such-target\.yaml/],
  ['an unknown report argument', ['report', 'somewhere'], /unexpected argument 'somewhere'/],
  ['--merge without directories', ['report', '--merge'], /--merge needs at least one directory/],
  [
    'a report file that does not exist',
    ['report', '--from', join(FIXTURES, 'none.json')],
    /--from: .*none\.json does not exist/,
  ],
  ['a bad mutants --direction', ['mutants', '--direction', 'sideways'], /--direction must be service, host or both/],
];

for (const [what, args, message] of usageCases) {
  test(`${what} exits 2 with a message naming what is wrong`, async () => {
    const r = await cli(args);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
  });
}

test('an expected-outcomes file with a bad entry exits 2 naming the field, before any test runs', async () => {
  const r = await cli(['run', '--expected', join(FIXTURES, 'clauses.yaml')]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/clauses\.yaml: (version|areas|clauses): unknown field/);
  expect(r.stdout).not.toContain('running');
});

test('an unknown seeded fault exits 2 naming it and the known ones, before any test runs', async () => {
  // Without the fixture config the CLI checks --fault against the reference service's FAULTS.
  const r = await cli(['run', '--fault', 'no-such-fault'], { CCS_RUN_CONFIG: '' });
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/--fault no-such-fault: not a seeded fault of the reference service \(known: [a-z]/);
});
