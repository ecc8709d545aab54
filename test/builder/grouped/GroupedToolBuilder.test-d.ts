import { expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { createTool } from '../../../src/builder/grouped/GroupedToolBuilder.js';
import type { FusionTool, HandlerExtra } from '../../../src/protocol/types.js';
import type { ToolSource } from '../../../src/registry/types.js';

interface AppContext {
  db: { name: string };
}

test('handler input is the common fields plus the action schema', () => {
  createTool<AppContext>('platform')
    .commonSchema(z.object({ workspaceId: z.string() }))
    .action({
      name: 'create',
      schema: z.object({ email: z.string(), limit: z.number().default(5), note: z.string().optional() }),
      handler: (input, ctx, extra) => {
        expectTypeOf(input).toEqualTypeOf<{
          workspaceId: string;
          email: string;
          limit: number;
          note?: string | undefined;
        }>();
        expectTypeOf(ctx).toEqualTypeOf<AppContext>();
        expectTypeOf(extra).toEqualTypeOf<HandlerExtra>();
        // @ts-expect-error the discriminator is not part of the input
        void input.action;
        return 'ok';
      },
    });
});

test('an action without a schema gets the common fields only; groups see them too', () => {
  createTool<AppContext>('platform')
    .commonSchema(z.object({ workspaceId: z.string() }))
    .group('users', 'Users', (g) =>
      g.action({
        name: 'list',
        handler: (input) => {
          expectTypeOf(input).toEqualTypeOf<{ workspaceId: string }>();
          return [];
        },
      }),
    );
  createTool('bare').action({
    name: 'ping',
    handler: (input) => {
      expectTypeOf(input).toEqualTypeOf<Record<never, never>>();
      return 'pong';
    },
  });
});

test('a built grouped tool is a ToolSource of FusionTools', () => {
  const tool = createTool<AppContext>('t').action({ name: 'a', handler: () => '' });
  expectTypeOf(tool.toFusionTools()).toEqualTypeOf<readonly FusionTool<AppContext>[]>();
  expectTypeOf(tool).toExtend<ToolSource<AppContext>>();
});
