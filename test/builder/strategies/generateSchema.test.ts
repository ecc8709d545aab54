import { describe, expect, it } from 'vitest';
import { generateSchema } from '../../../src/builder/strategies/generateSchema.js';
import { mixedActions, spec, workspaceCommon } from './fixture.js';

describe('generateSchema', () => {
  it('lists the discriminator enum and appends the 4-tier annotations to field descriptions', () => {
    expect(generateSchema({ actions: mixedActions, discriminator: 'action', common: workspaceCommon })).toEqual({
      type: 'object',
      properties: {
        action: {
          type: 'string',
          enum: ['create', 'update', 'delete', 'list', 'search'],
          description: 'The operation to perform',
        },
        workspaceId: { type: 'string', description: 'Workspace ID (always required)' },
        verbose: { type: 'boolean', description: '(always optional)' },
        name: { type: 'string', description: 'Project name. Required for: create. For: update' },
        owner: { type: 'string', description: 'Required for: create' },
        tags: { type: 'array', items: { type: 'string' }, description: 'For: create, update' },
        id: { type: 'string', description: 'Project ID. Required for: update, delete' },
        query: { type: 'string', description: 'Text to match. For: list, search' },
        limit: { type: 'integer', description: 'For: list' },
      },
      required: ['action', 'workspaceId'],
      additionalProperties: false,
    });
  });

  it('describes a hierarchical discriminator and keeps only the discriminator required without common fields', () => {
    const schema = generateSchema({ actions: [spec('users.create'), spec('users.list')], discriminator: 'op' });
    expect(schema.properties).toEqual({
      op: {
        type: 'string',
        enum: ['users.create', 'users.list'],
        description: 'The operation to perform, as "<module>.<action>"',
      },
    });
    expect(schema.required).toEqual(['op']);
  });

  it('turns one field with different schemas in different actions into an anyOf', () => {
    const schema = generateSchema({
      actions: [
        spec('get', { properties: { id: { type: 'string', description: 'The ID' } }, required: ['id'] }),
        spec('legacy', { properties: { id: { type: 'integer' } }, required: ['id'] }),
        spec('peek', { properties: { id: { type: 'string' } } }),
      ],
      discriminator: 'action',
    });
    expect(schema.properties?.id).toEqual({
      anyOf: [{ type: 'string' }, { type: 'integer' }],
      description: 'The ID. Required for: get, legacy. For: peek',
    });
  });

  it('emits one exact oneOf branch per action, with the discriminator as a const, when perAction is on', () => {
    const schema = generateSchema({
      actions: mixedActions.slice(0, 3),
      discriminator: 'action',
      common: workspaceCommon,
      perAction: true,
    });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['create', 'update', 'delete'], description: 'The operation to perform' },
      },
      required: ['action'],
      oneOf: [
        {
          type: 'object',
          description: 'Create a project',
          properties: {
            action: { const: 'create' },
            workspaceId: { type: 'string', description: 'Workspace ID' },
            verbose: { type: 'boolean' },
            name: { type: 'string', description: 'Project name' },
            owner: { type: 'string' },
            tags: { type: 'array', items: { type: 'string' } },
          },
          required: ['action', 'workspaceId', 'name', 'owner'],
          additionalProperties: false,
        },
        {
          type: 'object',
          description: 'Rename or re-tag a project.',
          properties: {
            action: { const: 'update' },
            workspaceId: { type: 'string', description: 'Workspace ID' },
            verbose: { type: 'boolean' },
            id: { type: 'string', description: 'Project ID' },
            name: { type: 'string', description: 'Project name' },
            tags: { type: 'array', items: { type: 'string' } },
          },
          required: ['action', 'workspaceId', 'id'],
          additionalProperties: false,
        },
        {
          type: 'object',
          description: 'Delete a project',
          properties: {
            action: { const: 'delete' },
            workspaceId: { type: 'string', description: 'Workspace ID' },
            verbose: { type: 'boolean' },
            id: { type: 'string', description: 'Project ID' },
          },
          required: ['action', 'workspaceId', 'id'],
          additionalProperties: false,
        },
      ],
    });
  });

  it('lists $defs at the root and never aliases or mutates its input', () => {
    const actions = [spec('get', { properties: { ref: { $ref: '#/$defs/Ref' } }, required: ['ref'] })];
    const frozen = Object.freeze(actions.map((a) => Object.freeze(a)));
    const defs = { Ref: { type: 'string' } };
    const schema = generateSchema({ actions: frozen, discriminator: 'action', defs });
    expect(schema.$defs).toEqual(defs);
    expect(schema.$defs).not.toBe(defs);
    expect(schema.properties?.ref).toEqual({ $ref: '#/$defs/Ref', description: 'Required for: get' });
    expect(actions[0]!.properties).toEqual({ ref: { $ref: '#/$defs/Ref' } });
  });
});
