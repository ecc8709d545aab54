import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (docs/testing.md, The slowest files), in the order they start. Vitest orders by
 * the durations of the previous run when it has them and by file size otherwise (a fresh clone), which can
 * leave one of these starting last and running alone at the end of the run. The two longest that need a fresh
 * worker (project `isolated`) come right after the longest of all, so that the three workers begin with them
 * and every worker that frees up afterwards takes shared files (below).
 */
export const slowest = [
  'test/package/pack.test.ts',
  'test/cli/create.test.ts',
  'test/e2e/fuzz.test.ts',
  'test/e2e/npmStart.test.ts',
  'test/redis/rollingRestart.test.ts',
  'test/abuse/workflowData.test.ts',
  'test/redis/multiProcess.test.ts',
  'test/scripts/soak.test.ts',
  'test/redis/taskWorkers.test.ts',
  'test/cli/devReload.test.ts',
  'test/e2e/soak.test.ts',
];

/**
 * Vitest's order, with the {@link slowest} files moved to the front and the files of the shared project before
 * the isolated ones. Vitest keeps a shared worker (with the sources it has loaded) only while the next file in
 * the queue is a shared one: its own order (isolated projects first, by name) ended the early shared workers at
 * the first isolated file and started three new ones after the last, each loading the sources again at once
 * while both cores waited on Vitest's transforms. Shared first, the workers load the sources once, early,
 * beside the package and scaffold tests' children; the isolated files, short ones, fill the end of the run.
 */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const index = slowest.indexOf(relative(spec.project.config.root, spec.moduleId));
      return index === -1 ? slowest.length : index;
    };
    const group = (spec: TestSpecification): number => spec.project.config.sequence.groupOrder ?? 0;
    const isolated = (spec: TestSpecification): number => (spec.project.config.isolate === false ? 0 : 1);
    return sorted
      .map((spec, at) => ({ spec, at }))
      .sort(
        (a, b) =>
          group(a.spec) - group(b.spec) ||
          rank(a.spec) - rank(b.spec) ||
          isolated(a.spec) - isolated(b.spec) ||
          a.at - b.at,
      )
      .map(({ spec }) => spec);
  }
}
