import { expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { initFusion, type HandlerExtra } from '../../src/index.js';

interface AppContext {
  db: { name: string };
}
const f = initFusion<AppContext>();

test('with* fields infer the handler input', () => {
  f.action('t.update')
    .withString('id')
    .withOptionalString('title')
    .withNumber('n')
    .withEnum('p', ['low', 'high'])
    .withArray('tags', 'number')
    .handle((input, ctx, extra) => {
      expectTypeOf(input).toEqualTypeOf<{ id: string; title?: string; n: number; p: 'low' | 'high'; tags: number[] }>();
      expectTypeOf(ctx).toEqualTypeOf<AppContext>();
      expectTypeOf(extra).toEqualTypeOf<HandlerExtra>();
      return 'ok';
    });
});

test('.input(zod) infers the handler input', () => {
  f.query('u.find')
    .input(z.object({ email: z.string(), limit: z.number().optional() }))
    .handle((input) => {
      expectTypeOf(input.email).toEqualTypeOf<string>();
      expectTypeOf(input.limit).toEqualTypeOf<number | undefined>();
      // @ts-expect-error unknown fields are not part of the input
      void input.other;
      return '';
    });
});
