import { describe, expectTypeOf, it } from 'vitest';
import type { StageName } from '../../src/runtime/stages/stageList.js';
import { defineStage } from '../../src/runtime/stages/StageDefinition.js';
import type { stageList } from '../../src/runtime/stages/stageList.js';

describe('StageName', () => {
  it('is the names of the stage list, derived from it', () => {
    expectTypeOf<StageName>().toEqualTypeOf<(typeof stageList)[number]['name']>();
    expectTypeOf<StageName>().toEqualTypeOf<
      'switch' | 'scopes' | 'rateLimit' | 'concurrency' | 'track' | 'workflow' | 'validate' | 'stateSync'
    >();
    // @ts-expect-error a name outside the list is no stage name
    const unknown: StageName = 'maintenance';
    void unknown;
  });

  it('keeps the literal name of a defined stage', () => {
    const stage = defineStage({
      name: 'audit',
      tools: { appliesTo: () => true, build: () => (call, next) => next(call) },
    });
    expectTypeOf(stage.name).toEqualTypeOf<'audit'>();
  });
});
