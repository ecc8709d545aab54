import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FluentToolBuilder } from '../../src/builder/FluentToolBuilder.js';
import { createTool } from '../../src/builder/grouped/GroupedToolBuilder.js';
import type { FusionTool, ToolKind } from '../../src/protocol/types.js';
import { compileSurface, renderer, type GroupedRoute } from '../../src/surface/compileSurface.js';
import { groupingFor, groupTools } from '../../src/surface/groupedExposition.js';
import { extra, platformTool } from '../builder/grouped/platform.js';

const fluent = (
  kind: ToolKind,
  name: string,
  fields: Record<string, z.ZodType> = {},
  description?: string,
): FusionTool => {
  const builder = new FluentToolBuilder<unknown>(kind, name).input(z.object(fields));
  return (description === undefined ? builder : builder.describe(description)).handle((input) => ({ name, input }));
};
const same = (name: string) => name;

describe('groupTools', () => {
  it('groups fluent tools sharing a prefix under the prefix, with an "action" discriminator', () => {
    const tools = [
      fluent('query', 'projects.list', { limit: z.number().optional() }, 'List projects'),
      fluent('action', 'projects.create', { name: z.string().describe('Project name') }, 'Create a project'),
      fluent('mutation', 'projects.members.remove', { userId: z.string() }),
    ];
    const { wire, routes } = groupTools(tools, same);
    expect(routes).toHaveLength(1);
    const route = routes[0] as GroupedRoute;
    expect(route.kind).toBe('grouped');
    expect(route.exposed).toBe('projects');
    expect(route.discriminator).toBe('action');
    expect([...route.actions]).toEqual([
      ['list', tools[0]],
      ['create', tools[1]],
      ['members.remove', tools[2]],
    ]);
    expect(wire).toEqual([
      {
        name: 'projects',
        description: [
          'Actions:',
          '- list: List projects',
          '- create: Create a project. Requires: name',
          '- members.remove: Requires: userId [DESTRUCTIVE]',
        ].join('\n'),
        inputSchema: {
          type: 'object',
          properties: {
            action: {
              type: 'string',
              enum: ['list', 'create', 'members.remove'],
              description: 'The operation to perform',
            },
            limit: { type: 'number', description: 'For: list' },
            name: { type: 'string', description: 'Project name. Required for: create' },
            userId: { type: 'string', description: 'Required for: members.remove' },
          },
          required: ['action'],
          additionalProperties: false,
        },
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
        _meta: {
          'fusion/actions': {
            list: { readOnly: true, destructive: false, idempotent: false },
            create: { readOnly: false, destructive: false, idempotent: false },
            'members.remove': { readOnly: false, destructive: true, idempotent: false },
          },
        },
      },
    ]);
  });

  it('keeps flat a lone prefix, an undotted name, a prefix that names another tool and a prefix whose tools take an "action" field', () => {
    const tools = [
      fluent('query', 'health'),
      fluent('query', 'sprints.list'),
      fluent('action', 'jobs.run', { action: z.string() }),
      fluent('query', 'jobs.list'),
      fluent('query', 'health.deep'),
      fluent('query', 'health.shallow'),
      ...createTool('ops')
        .action({ name: 'restart', handler: () => '' })
        .toFusionTools(),
      fluent('query', 'ops.status'),
      fluent('query', 'ops.logs'),
    ];
    const { wire, routes } = groupTools(tools, same);
    expect(routes.map((r) => [r.kind, r.exposed])).toEqual([
      ['flat', 'health'],
      ['flat', 'sprints.list'],
      ['flat', 'jobs.run'],
      ['flat', 'jobs.list'],
      ['flat', 'health.deep'],
      ['flat', 'health.shallow'],
      ['grouped', 'ops'],
      ['flat', 'ops.status'],
      ['flat', 'ops.logs'],
    ]);
    expect(wire.map((w) => w.name)).toEqual(routes.map((r) => r.exposed));
    expect(wire[1]).toEqual({
      name: 'sprints.list',
      inputSchema: tools[1]!.inputSchema,
      annotations: { readOnlyHint: true },
    });
  });

  it('in builder mode (the default exposition) groups only grouped builders; fluent tools sharing a prefix stay one tool each', () => {
    const builder = platformTool();
    const tools = [fluent('query', 'projects.list'), fluent('action', 'projects.create'), ...builder.toFusionTools()];
    const { wire, routes } = groupTools(tools, same, 'builder');
    expect(routes.map((r) => [r.kind, r.exposed])).toEqual([
      ['flat', 'projects.list'],
      ['flat', 'projects.create'],
      ['grouped', 'platform'],
    ]);
    expect(wire[2]).toEqual(builder.buildToolDefinition());
    // groupingFor maps the attach option: undefined and 'builder' follow the builder, 'flat' splits, 'grouped' also merges prefixes.
    const exposed = (mode: Parameters<typeof groupingFor>[0]) => [
      ...compileSurface(tools, { group: groupingFor(mode) }).routes.keys(),
    ];
    expect(exposed(undefined)).toEqual(['projects.list', 'projects.create', 'platform']);
    expect(exposed('builder')).toEqual(['projects.list', 'projects.create', 'platform']);
    expect(exposed('grouped')).toEqual(['projects', 'platform']);
    expect(exposed('flat')).toEqual([
      'projects.list',
      'projects.create',
      ...builder.getActionNames().map((k) => `platform.${k}`),
    ]);
    // Canonical names never change: the surface's tools are the same objects in every mode.
    for (const mode of [undefined, 'flat', 'grouped'] as const)
      expect(compileSurface(tools, { group: groupingFor(mode) }).tools).toEqual(tools);
  });

  it('exposes a grouped builder as one tool whose definition equals buildToolDefinition()', () => {
    const builder = platformTool();
    const { wire, routes } = groupTools(builder.toFusionTools(), same);
    expect(wire).toEqual([builder.buildToolDefinition()]);
    const route = routes[0] as GroupedRoute;
    expect(route.exposed).toBe('platform');
    expect([...route.actions.keys()]).toEqual([
      'users.create',
      'users.update',
      'users.list',
      'users.delete',
      'billing.refund',
    ]);
    expect(route.actions.get('users.delete')!.name).toBe('platform.users.delete');
  });

  it('keeps the order of first appearance and renders exposed names, not keys', () => {
    const tools = [
      fluent('query', 'a.one'),
      fluent('query', 'solo'),
      ...createTool('ops')
        .action({ name: 'restart', handler: () => '' })
        .toFusionTools(),
      fluent('query', 'a.two'),
    ];
    const { routes } = groupTools(
      tools,
      renderer((n) => `x_${n}`),
    );
    expect(routes.map((r) => [r.kind, r.exposed, r.kind === 'grouped' ? [...r.actions.keys()] : r.tool.name])).toEqual([
      ['grouped', 'x_a', ['one', 'two']],
      ['flat', 'x_solo', 'solo'],
      ['grouped', 'x_ops', ['restart']],
    ]);
  });

  it('describes only the actions that passed the filter', () => {
    const tools = platformTool()
      .toFusionTools()
      .filter((t) => t.group!.key.startsWith('users.'));
    const { wire } = groupTools(tools, same);
    expect((wire[0]!.inputSchema.properties as Record<string, { enum?: string[] }>).action!.enum).toEqual([
      'users.create',
      'users.update',
      'users.list',
      'users.delete',
    ]);
    expect(wire[0]!.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(wire[0]!.description).not.toContain('billing');
  });

  it('refuses two grouped builders with the same name', () => {
    const a = createTool('ops').action({ name: 'start', handler: () => '' });
    const b = createTool('ops').action({ name: 'stop', handler: () => '' });
    expect(() => groupTools([...a.toFusionTools(), ...b.toFusionTools()], same)).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Two grouped tools are named "ops" (actions start, stop); rename one of them.]`,
    );
  });

  it('plugs into compileSurface: one Map.get reaches the route, the canonical names map to the grouped tool', async () => {
    const tools = [
      ...platformTool().toFusionTools(),
      fluent('query', 'projects.list'),
      fluent('action', 'projects.create', { name: z.string() }),
    ];
    const surface = compileSurface(tools, { group: groupTools });
    expect([...surface.routes.keys()]).toEqual(['platform', 'projects']);
    expect(surface.exposedName.get('platform.users.create')).toBe('platform');
    expect(surface.exposedName.get('projects.create')).toBe('projects');
    const route = surface.routes.get('projects') as GroupedRoute;
    const tool = route.actions.get('create')!;
    expect(await tool.run({ name: 'p' }, undefined, extra)).toEqual({
      content: [{ type: 'text', text: '{"name":"projects.create","input":{"name":"p"}}' }],
    });
    const flat = compileSurface(tools);
    expect([...flat.routes.keys()]).toEqual([
      'platform.users.create',
      'platform.users.update',
      'platform.users.list',
      'platform.users.delete',
      'platform.billing.refund',
      'projects.list',
      'projects.create',
    ]);
  });

  it('reaches every tool through exactly one route, as <exposed>.<key> or flat', () => {
    const segment = fc.constantFrom('a', 'b', 'c', 'list', 'create');
    const names = fc.uniqueArray(
      fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('.')),
      { minLength: 1, maxLength: 12 },
    );
    fc.assert(
      fc.property(names, (list) => {
        const tools = list.map((n) => fluent('query', n));
        const { wire, routes } = groupTools(tools, same);
        expect(wire.map((w) => w.name)).toEqual(routes.map((r) => r.exposed));
        expect(new Set(routes.map((r) => r.exposed)).size).toBe(routes.length);
        const reached = routes.flatMap((r) =>
          r.kind === 'flat'
            ? [[r.tool.name, r.exposed]]
            : [...r.actions].map(([key, t]) => [t.name, `${r.exposed}.${key}`]),
        );
        expect(reached.map(([name]) => name).sort()).toEqual([...list].sort());
        for (const [name, path] of reached) expect(path).toBe(name);
      }),
    );
  });
});
