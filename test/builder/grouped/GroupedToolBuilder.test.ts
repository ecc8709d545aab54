import { encode } from '@toon-format/toon';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTool } from '../../../src/builder/grouped/GroupedToolBuilder.js';
import { DefinitionError, FrozenBuilderError } from '../../../src/errors/FusionError.js';
import type { ToolSource } from '../../../src/registry/types.js';
import { extra, platformTool, trace, type AppContext } from './platform.js';

const ctx = (): AppContext => ({ user: 'ana', log: [] });

describe('GroupedToolBuilder: definition', () => {
  it('builds the grouped MCP tool definition from the strategies', () => {
    expect(platformTool().buildToolDefinition()).toEqual({
      name: 'platform',
      description: [
        'Platform administration.',
        'Modules:',
        '- users (create, update, list, delete): User accounts',
        '- billing (refund)',
        'Actions:',
        '- users.create: Create a user. Requires: email',
        '- users.update: Requires: id',
        '- users.list: List users',
        '- users.delete: Delete a user. Requires: id [DESTRUCTIVE]',
        '- billing.refund: Requires: invoiceId [DESTRUCTIVE]',
      ].join('\n'),
      inputSchema: {
        type: 'object',
        properties: {
          action: {
            type: 'string',
            enum: ['users.create', 'users.update', 'users.list', 'users.delete', 'billing.refund'],
            description: 'The operation to perform, as "<module>.<action>"',
          },
          workspaceId: { type: 'string', description: 'Workspace ID (always required)' },
          email: { type: 'string', description: 'Email address. Required for: users.create. For: users.update' },
          role: { type: 'string', enum: ['admin', 'member'], description: 'For: users.create, users.update' },
          id: { type: 'string', description: 'Required for: users.update, users.delete' },
          invoiceId: { type: 'string', description: 'Required for: billing.refund' },
        },
        required: ['action', 'workspaceId'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
      _meta: {
        'fusion/actions': {
          'users.create': { readOnly: false, destructive: false, idempotent: false },
          'users.update': { readOnly: false, destructive: false, idempotent: true },
          'users.list': { readOnly: true, destructive: false, idempotent: true },
          'users.delete': { readOnly: false, destructive: true, idempotent: false },
          'billing.refund': { readOnly: false, destructive: true, idempotent: false },
        },
      },
    });
  });

  it('computes the definition once and freezes it', () => {
    const tool = platformTool();
    const definition = tool.buildToolDefinition();
    expect(tool.buildToolDefinition()).toBe(definition);
    expect(Object.isFrozen(definition)).toBe(true);
    expect(Object.isFrozen(definition.inputSchema.properties)).toBe(true);
  });

  it('builds one frozen tool per action, named <tool>.<key>, with merged strict schemas and per-action annotations', () => {
    const tools = platformTool().toFusionTools();
    expect(tools.map((t) => t.name)).toEqual([
      'platform.users.create',
      'platform.users.update',
      'platform.users.list',
      'platform.users.delete',
      'platform.billing.refund',
    ]);
    const [create, update, list, remove] = tools;
    expect(create!.group).toEqual({ tool: 'platform', key: 'users.create', discriminator: 'action' });
    expect(create!.inputSchema).toEqual({
      type: 'object',
      properties: {
        workspaceId: { type: 'string', description: 'Workspace ID' },
        email: { type: 'string', description: 'Email address' },
        role: { type: 'string', enum: ['admin', 'member'] },
      },
      required: ['workspaceId', 'email'],
      additionalProperties: false,
    });
    expect(create!.description).toBe('Create a user');
    expect(create!.tags).toEqual(['admin']);
    expect(tools.map((t) => [t.kind, t.annotations])).toEqual([
      ['action', { readOnlyHint: false, destructiveHint: false }],
      ['action', { readOnlyHint: false, destructiveHint: false, idempotentHint: true }],
      ['query', { readOnlyHint: true, idempotentHint: true }],
      ['mutation', { readOnlyHint: false, destructiveHint: true }],
      ['mutation', { readOnlyHint: false, destructiveHint: true }],
    ]);
    expect(update!.validate({ workspaceId: 'w', id: 'u1' }).ok).toBe(true);
    expect(list!.validate({ workspaceId: 'w', id: 'u1' }).ok).toBe(false);
    expect(remove!.validate({ workspaceId: 'w' }).ok).toBe(false);
    expect(tools.every((t) => Object.isFrozen(t))).toBe(true);
  });

  it('is a ToolSource: registry.register(builder) adds every action', () => {
    const source: ToolSource<AppContext> = platformTool();
    expect('toFusionTools' in source && source.toFusionTools()).toHaveLength(5);
  });

  it('opts into a oneOf per action and TOON descriptions', () => {
    const tool = createTool('projects')
      .describe('Manage projects')
      .perActionSchemas()
      .toonDescription({ encode })
      .action({ name: 'list', readOnly: true, handler: () => [] })
      .action({ name: 'archive', destructive: true, schema: z.object({ id: z.string() }), handler: () => 'ok' });
    const definition = tool.buildToolDefinition();
    expect(definition.description).toMatchInlineSnapshot(`
      "Manage projects
      actions[2|]{action|description|requires|destructive}:
        list|""|""|false
        archive|""|id|true"
    `);
    expect(definition.inputSchema).toEqual({
      type: 'object',
      properties: { action: { type: 'string', enum: ['list', 'archive'], description: 'The operation to perform' } },
      required: ['action'],
      oneOf: [
        {
          type: 'object',
          properties: { action: { const: 'list' } },
          required: ['action'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { action: { const: 'archive' }, id: { type: 'string' } },
          required: ['action', 'id'],
          additionalProperties: false,
        },
      ],
    });
  });

  it('loads @toon-format/toon by itself when no encoder is passed', () => {
    const tool = createTool('notes')
      .toonDescription()
      .action({ name: 'list', handler: () => [] });
    expect(tool.buildToolDefinition().description).toBe(
      'actions[1|]{action|description|requires|destructive}:\n  list|""|""|false',
    );
  });

  it('uses a custom discriminator', () => {
    const tool = createTool('files')
      .discriminator('op')
      .action({ name: 'read', schema: z.object({ path: z.string() }), handler: (i) => i.path });
    expect(tool.getDiscriminator()).toBe('op');
    expect(tool.buildToolDefinition().inputSchema.required).toEqual(['op']);
    expect(tool.toFusionTools()[0]!.group).toEqual({ tool: 'files', key: 'read', discriminator: 'op' });
  });
});

describe('GroupedToolBuilder: execute', () => {
  it('routes by the discriminator and runs global → group → handler middlewares', async () => {
    const c = ctx();
    const result = await platformTool().execute(
      c,
      { action: 'users.create', workspaceId: 'w1', email: 'a@b.co' },
      extra,
    );
    expect(result).toEqual({ content: [{ type: 'text', text: 'created a@b.co in w1' }] });
    expect(c.log).toEqual(['global>', 'users>', 'handler', '<users', '<global']);
  });

  it('skips the middlewares of other groups', async () => {
    const c = ctx();
    expect(
      await platformTool().execute(c, { action: 'billing.refund', workspaceId: 'w', invoiceId: 'i9' }, extra),
    ).toEqual({
      content: [{ type: 'text', text: 'refunded i9' }],
    });
    expect(c.log).toEqual(['global>', '<global']);
  });

  it('answers an unknown or missing action with the valid ones', async () => {
    const tool = platformTool();
    expect((await tool.execute(ctx(), { action: 'users.purge', workspaceId: 'w' }, extra)).content[0])
      .toMatchInlineSnapshot(`
      {
        "text": "Tool "platform" was called with "action": "users.purge". Valid values of "action": users.create, users.update, users.list, users.delete, billing.refund. Call "platform" again with one of them.",
        "type": "text",
      }
    `);
    const missing = await tool.execute(ctx(), { workspaceId: 'w' }, extra);
    expect(missing.isError).toBe(true);
    expect(missing.content[0]).toMatchObject({ text: expect.stringContaining('was called with no "action"') });
  });

  it('validates the common and action fields strictly and lists unknown fields', async () => {
    const result = await platformTool().execute(ctx(), { action: 'users.create', email: 42, colour: 'red' }, extra);
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchInlineSnapshot(`
      {
        "text": "Invalid arguments for tool "platform" ("action": "users.create"):
      - workspaceId: expected string, received undefined
      - email: expected string, received number
      - colour: unknown field
      Accepted fields for "users.create": action, workspaceId, email, role. Fix the arguments and call "platform" again.",
        "type": "text",
      }
    `);
  });

  it('hands the handler the validated common + action fields, without the discriminator', async () => {
    let seen: unknown;
    const tool = createTool('t')
      .commonSchema(z.object({ ws: z.string(), limit: z.number().default(10) }))
      .action({
        name: 'list',
        schema: z.object({ q: z.string().optional() }),
        handler: (input) => {
          seen = input;
          return 'ok';
        },
      });
    await tool.execute(undefined, { action: 'list', ws: 'w' });
    expect(seen).toEqual({ ws: 'w', limit: 10 });
  });
});

describe('GroupedToolBuilder: one builder, frozen when built', () => {
  it('keeps unchained calls: each call changes the builder it is called on', async () => {
    const t = createTool('ops');
    t.describe('Operations');
    t.action({ name: 'a', handler: () => 'A' });
    t.action({ name: 'b', handler: () => 'B' });
    expect(t.getActionNames()).toEqual(['a', 'b']);
    expect(t.buildToolDefinition().description).toMatch(/^Operations/);
    expect(await t.execute(undefined, { action: 'b' })).toEqual({ content: [{ type: 'text', text: 'B' }] });
  });

  it('returns the same builder from chained calls', () => {
    const base = createTool('t');
    const chained = base.describe('x').action({ name: 'a', handler: () => '' });
    expect(chained).toBe(base);
    expect(base.getActionNames()).toEqual(['a']);
  });

  it('keeps unchained group calls, and closes a group when its callback returns', () => {
    let kept: { action(c: { name: string; handler: () => string }): unknown } | undefined;
    const t = createTool('t').group('users', (g) => {
      g.action({ name: 'create', handler: () => '' });
      g.action({ name: 'list', handler: () => '' });
      kept = g;
    });
    expect(t.getActionNames()).toEqual(['users.create', 'users.list']);
    expect(() => kept!.action({ name: 'late', handler: () => '' })).toThrowErrorMatchingInlineSnapshot(
      `[FrozenBuilderError: Group "users" of tool "t" is closed (its .group() callback returned); cannot add an action. Add every action of the group inside its callback.]`,
    );
  });

  it('collects actions from several modules sharing one builder, and freezes when registered', async () => {
    const { ToolRegistry } = await import('../../../src/registry/ToolRegistry.js');
    const shared = createTool('platform');
    const usersModule = (tool: typeof shared): void => {
      tool.action({ name: 'users_list', handler: () => 'users' });
    };
    const billingModule = (tool: typeof shared): void => {
      tool.action({ name: 'billing_refund', handler: () => 'refund' });
    };
    usersModule(shared);
    billingModule(shared);
    const registry = new ToolRegistry();
    registry.register(shared);
    expect(registry.tools.map((x) => x.name)).toEqual(['platform.users_list', 'platform.billing_refund']);
    expect(() => usersModule(shared)).toThrow(FrozenBuilderError);
    expect(() => usersModule(shared)).toThrow(
      /Grouped tool "platform" is already built.*start a new builder with createTool\("platform"\)/,
    );
  });

  it('refuses every change once built, naming the tool', () => {
    const tool = platformTool();
    tool.toFusionTools();
    expect(tool.built).toBe(true);
    expect(() => tool.action({ name: 'x', handler: () => '' })).toThrowErrorMatchingInlineSnapshot(
      `[FrozenBuilderError: Grouped tool "platform" is already built (registered, listed or executed); cannot add an action. Builders are frozen once built: declare everything before registry.register(), .buildToolDefinition(), .toFusionTools() or .execute(), or start a new builder with createTool("platform").]`,
    );
    expect(() => tool.use(trace('late'))).toThrow(FrozenBuilderError);
    expect(() => tool.group('late', (g) => g)).toThrow(/already built .*; cannot add a group/);
    expect(() => tool.describe('x')).toThrow(FrozenBuilderError);
    expect(() => tool.tags('x')).toThrow(FrozenBuilderError);
  });

  it('freezes on execute too', async () => {
    const tool = createTool('t').action({ name: 'a', handler: () => 'ok' });
    await tool.execute(undefined, { action: 'a' });
    expect(() => tool.discriminator('op')).toThrow(FrozenBuilderError);
  });
});

describe('GroupedToolBuilder: definition errors', () => {
  const ok = { handler: () => '' };

  it('explains a tool without actions', () => {
    const tool = createTool('empty');
    expect(() => tool.toFusionTools()).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Tool "empty" has no actions; add one with .action({ name, handler }).]`,
    );
  });

  it('rejects duplicate keys, bad names and mixed grouped/ungrouped actions', () => {
    const one = createTool('t').action({ name: 'a', ...ok });
    expect(() => one.action({ name: 'a', ...ok })).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Tool "t" declares the action "a" twice; remove one of them or rename it.]`,
    );
    expect(() => createTool('t').action({ name: 'users.create', ...ok })).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Tool "t" has an action named "users.create"; action and group names are 1–64 letters, digits, "_" or "-" (no dots: .group("users", …) makes keys such as "users.create").]`,
    );
    expect(() => one.group('g', (g) => g.action({ name: 'b', ...ok }))).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Tool "t" mixes the ungrouped action "a" with groups; put it in a group or declare no groups.]`,
    );
    expect(() =>
      createTool('t')
        .group('g', (g) => g.action({ name: 'b', ...ok }))
        .action({ name: 'c', ...ok }),
    ).toThrow(/mixes groups with the ungrouped action "c"/);
    expect(() =>
      createTool('t')
        .group('g', (g) => g.action({ name: 'b', ...ok }))
        .group('g', (g) => g.action({ name: 'c', ...ok })),
    ).toThrow(/declares the group "g" twice/);
    expect(() => createTool('bad name')).toThrow(DefinitionError);
  });

  it('refuses a group without actions', () => {
    expect(() => createTool('t').group('users', () => {})).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Group "users" of tool "t" has no actions; add them in the callback: g => g.action({ … }).]`,
    );
  });

  it('rejects contradictory hints, missing handlers and non-object schemas', () => {
    expect(() =>
      createTool('t').action({ name: 'a', readOnly: true, destructive: true, ...ok }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Action "a" of tool "t" is both readOnly and destructive; a read-only action destroys nothing, so drop one of the two.]`,
    );
    expect(() => createTool('t').action({ name: 'a' } as never)).toThrow(/has no handler/);
    expect(() => createTool('t').action({ name: 'a', schema: z.string() as never, ...ok })).toThrow(/not a zod object/);
  });

  it('rejects fields named like the discriminator or redeclaring a common field', () => {
    const clash = createTool('t').action({ name: 'a', schema: z.object({ action: z.string() }), ...ok });
    expect(() => clash.toFusionTools()).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Action "a" of tool "t" has a field named like the discriminator "action"; rename the field or choose another discriminator with .discriminator("op").]`,
    );
    expect(
      createTool('t')
        .discriminator('op')
        .action({ name: 'a', schema: z.object({ action: z.string() }), ...ok })
        .toFusionTools(),
    ).toHaveLength(1);
    const redeclared = createTool('t')
      .commonSchema(z.object({ ws: z.string() }))
      .action({ name: 'a', schema: z.object({ ws: z.number() }), ...ok });
    expect(() => redeclared.toFusionTools()).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Action "a" of tool "t" redeclares the common field "ws"; remove it from the action's schema (every handler already receives it).]`,
    );
    expect(() =>
      createTool('t')
        .action({ name: 'a', ...ok })
        .commonSchema(z.object({})),
    ).toThrow(/after its first action/);
  });
});

describe('GroupedToolBuilder: introspection', () => {
  it('lists action keys and metadata without building', () => {
    const tool = platformTool();
    expect(tool.getName()).toBe('platform');
    expect(tool.getActionNames()).toEqual([
      'users.create',
      'users.update',
      'users.list',
      'users.delete',
      'billing.refund',
    ]);
    expect(tool.getActionMetadata().slice(0, 3)).toEqual([
      {
        key: 'users.create',
        canonicalName: 'platform.users.create',
        name: 'create',
        group: 'users',
        description: 'Create a user',
        readOnly: false,
        destructive: false,
        idempotent: false,
        requiredFields: ['workspaceId', 'email'],
      },
      {
        key: 'users.update',
        canonicalName: 'platform.users.update',
        name: 'update',
        group: 'users',
        description: undefined,
        readOnly: false,
        destructive: false,
        idempotent: true,
        requiredFields: ['workspaceId', 'id'],
      },
      {
        key: 'users.list',
        canonicalName: 'platform.users.list',
        name: 'list',
        group: 'users',
        description: 'List users',
        readOnly: true,
        destructive: false,
        idempotent: true,
        requiredFields: ['workspaceId'],
      },
    ]);
    expect(tool.built).toBe(false);
    expect(tool.action).toBeTypeOf('function');
  });
});
