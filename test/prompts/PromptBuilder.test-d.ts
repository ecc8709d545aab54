import { expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import type { HandlerExtra } from '../../src/protocol/types.js';
import { PromptBuilder } from '../../src/prompts/PromptBuilder.js';

interface AppContext {
  user: string;
}

test('.argument() infers required and optional string arguments', () => {
  new PromptBuilder<AppContext>('p')
    .argument('code', { required: true })
    .argument('style')
    .argument('tone', { required: false })
    .handle((args, ctx, extra) => {
      expectTypeOf(args).toEqualTypeOf<{ code: string; style?: string; tone?: string }>();
      expectTypeOf(ctx).toEqualTypeOf<AppContext>();
      expectTypeOf(extra).toEqualTypeOf<HandlerExtra>();
      return 'ok';
    });
});

test('.args(zod) infers the parsed output', () => {
  new PromptBuilder<AppContext>('p')
    .args(z.object({ days: z.coerce.number(), goal: z.string().optional() }))
    .handle((args) => {
      expectTypeOf(args).toEqualTypeOf<{ days: number; goal?: string | undefined }>();
      return [{ role: 'assistant', content: 'x' }];
    });
});

test('a handler must return a string, messages or a result', () => {
  // @ts-expect-error a number is not a prompt result
  new PromptBuilder<AppContext>('p').handle(() => 42);
});
