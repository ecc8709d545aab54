import { expectTypeOf, test } from 'vitest';
import { ResourceTemplateBuilder } from '../../src/resources/ResourceTemplateBuilder.js';

test('the handler variables are typed from the template literal', () => {
  new ResourceTemplateBuilder<{ db: string }, 'app://{org}/items/{id}'>('app://{org}/items/{id}').handle(
    (uri, vars, ctx) => {
      expectTypeOf(uri).toEqualTypeOf<string>();
      expectTypeOf(vars).toEqualTypeOf<{ org: string; id: string }>();
      expectTypeOf(ctx).toEqualTypeOf<{ db: string }>();
      // @ts-expect-error no such variable
      void vars.name;
      return 'x';
    },
  );
});
