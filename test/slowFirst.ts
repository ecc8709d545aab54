import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (docs/testing.md, The slowest files), longest first. Vitest orders by the
 * durations of the previous run when it has them and by file size otherwise (a fresh clone), which can leave
 * one of these starting last and running alone at the end of the run.
 */
export const slowest = [
  'test/package/pack.test.ts',
  'test/cli/create.test.ts',
  'test/e2e/npmStart.test.ts',
  'test/redis/rollingRestart.test.ts',
  'test/abuse/workflowData.test.ts',
  'test/redis/multiProcess.test.ts',
  'test/scripts/soak.test.ts',
  'test/e2e/fuzz.test.ts',
  'test/e2e/soak.test.ts',
  'test/cli/devReload.test.ts',
];

/** Vitest's order, with the {@link slowest} files moved to the front. */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const index = slowest.indexOf(relative(spec.project.config.root, spec.moduleId));
      return index === -1 ? slowest.length : index;
    };
    return sorted
      .map((spec, at) => ({ spec, at }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.at - b.at)
      .map(({ spec }) => spec);
  }
}
