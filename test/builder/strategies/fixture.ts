import type { ActionSpec } from '../../../src/builder/strategies/types.js';

/** Builds an ActionSpec with safe defaults. */
export function spec(key: string, patch: Partial<ActionSpec> = {}): ActionSpec {
  const dot = key.indexOf('.');
  return {
    key,
    name: dot < 0 ? key : key.slice(dot + 1),
    group: dot < 0 ? undefined : key.slice(0, dot),
    description: undefined,
    properties: {},
    required: [],
    readOnly: false,
    destructive: false,
    idempotent: false,
    ...patch,
  };
}

/** A mixed fixture: every tier of field annotation, a destructive and a read-only action. */
export const mixedActions: readonly ActionSpec[] = [
  spec('create', {
    description: 'Create a project',
    properties: {
      name: { type: 'string', description: 'Project name' },
      owner: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['name', 'owner'],
  }),
  spec('update', {
    description: 'Rename or re-tag a project.',
    properties: {
      id: { type: 'string', description: 'Project ID' },
      name: { type: 'string', description: 'Project name' },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['id'],
    idempotent: true,
  }),
  spec('delete', {
    description: 'Delete a project',
    properties: { id: { type: 'string', description: 'Project ID' } },
    required: ['id'],
    destructive: true,
  }),
  spec('list', {
    properties: { query: { type: 'string', description: 'Text to match' }, limit: { type: 'integer' } },
    readOnly: true,
  }),
  spec('search', { properties: { query: { type: 'string', description: 'Text to match' } }, readOnly: true }),
];

export const workspaceCommon = {
  properties: { workspaceId: { type: 'string', description: 'Workspace ID' }, verbose: { type: 'boolean' } },
  required: ['workspaceId'],
};
