import { describe, expectTypeOf, it } from 'vitest';
import { initFusion, type FusionTool } from '../../src/index.js';

const f = initFusion<{ userId: string }>();

describe('scopes and rate limits in the builders (types)', () => {
  it('keep the inferred input and context through .requireScopes() and .rateLimit()', () => {
    const tool = f
      .mutation('notes.delete')
      .requireScopes('notes:write')
      .withString('id')
      .rateLimit({ max: 5, windowMs: 60_000 })
      .handle((input, ctx) => {
        expectTypeOf(input).toEqualTypeOf<{ id: string }>();
        expectTypeOf(ctx).toEqualTypeOf<{ userId: string }>();
        return 'ok';
      });
    expectTypeOf(tool).toEqualTypeOf<FusionTool<{ userId: string }>>();
  });

  it('need at least one scope and a complete limit', () => {
    // @ts-expect-error at least one scope
    f.query('a').requireScopes();
    // @ts-expect-error windowMs is required
    f.query('b').rateLimit({ max: 5 });
    f.tool('admin').action({
      name: 'purge',
      requireScopes: ['admin'],
      rateLimit: { max: 1, windowMs: 1_000 },
      handler: () => 'purged',
    });
  });
});
