import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { initFusion } from '../../src/index.js';

const f = initFusion<{ cities: string[] }>();

describe('.complete() types', () => {
  it('takes only declared argument names, and gives the completer the context', () => {
    f.prompt('p')
      .argument('city', { required: true })
      .complete('city', (value, { arguments: chosen }, ctx) => {
        expectTypeOf(value).toEqualTypeOf<string>();
        expectTypeOf(chosen).toEqualTypeOf<Readonly<Record<string, string>>>();
        return ctx.cities.filter((c) => c.startsWith(value));
      });
    f.prompt('p')
      .argument('city')
      // @ts-expect-error not an argument of the prompt
      .complete('country', () => []);
    f.prompt('q')
      .args(z.object({ topic: z.string() }))
      .complete('topic', () => ({ values: ['a'], hasMore: false }));
  });

  it('takes only the variables of a template', () => {
    f.resourceTemplate('app://{org}/{repo}').complete('repo', () => ['mcp-fusion']);
    // @ts-expect-error not a variable of the template
    f.resourceTemplate('app://{org}/{repo}').complete('branch', () => []);
  });
});
