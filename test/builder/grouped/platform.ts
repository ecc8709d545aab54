import { z } from 'zod';
import { createTool } from '../../../src/builder/grouped/GroupedToolBuilder.js';
import { detachedExtra } from '../../../src/builder/detachedExtra.js';
import type { Middleware, HandlerExtra } from '../../../src/protocol/types.js';

export interface AppContext {
  readonly user: string;
  readonly log: string[];
}

export const extra: HandlerExtra = detachedExtra({ requestId: 1 });

/** Records `name` in ctx.log around the rest of the chain. */
export function trace(name: string): Middleware<AppContext> {
  return async (ctx, _args, next) => {
    ctx.log.push(`${name}>`);
    const result = await next();
    ctx.log.push(`<${name}`);
    return result;
  };
}

/** A grouped tool with a common schema, two modules and every kind of action. */
export function platformTool() {
  return createTool<AppContext>('platform')
    .describe('Platform administration.')
    .tags('admin')
    .commonSchema(z.object({ workspaceId: z.string().describe('Workspace ID') }))
    .use(trace('global'))
    .group('users', 'User accounts', (g) =>
      g
        .use(trace('users'))
        .action({
          name: 'create',
          description: 'Create a user',
          schema: z.object({
            email: z.string().describe('Email address'),
            role: z.enum(['admin', 'member']).optional(),
          }),
          handler: (input, ctx) => {
            ctx.log.push('handler');
            return `created ${input.email} in ${input.workspaceId}`;
          },
        })
        .action({
          name: 'update',
          idempotent: true,
          schema: z.object({
            id: z.string(),
            email: z.string().optional().describe('Email address'),
            role: z.enum(['admin', 'member']).optional(),
          }),
          handler: (input) => ({ updated: input.id }),
        })
        .action({
          name: 'list',
          description: 'List users',
          readOnly: true,
          idempotent: true,
          handler: (input) => [input.workspaceId],
        })
        .action({
          name: 'delete',
          description: 'Delete a user',
          destructive: true,
          schema: z.object({ id: z.string() }),
          handler: (input) => `deleted ${input.id}`,
        }),
    )
    .group('billing', (g) =>
      g.action({
        name: 'refund',
        destructive: true,
        schema: z.object({ invoiceId: z.string() }),
        handler: (input) => `refunded ${input.invoiceId}`,
      }),
    );
}
