import { describe, expect, it } from 'vitest';
import { generateDescription, groupSummaries } from '../../../src/builder/strategies/generateDescription.js';
import { mixedActions, spec } from './fixture.js';

const grouped = [
  spec('users.create', { description: 'Create a user', required: ['email'] }),
  spec('users.delete', { description: 'Delete a user.', required: ['id'], destructive: true }),
  spec('billing.refund', { required: ['invoiceId'], destructive: true }),
  spec('users.list', { readOnly: true }),
];

describe('generateDescription', () => {
  it('lists every action with its required fields and tags destructive ones', () => {
    expect(generateDescription({ description: 'Manage projects.', actions: mixedActions })).toBe(
      [
        'Manage projects.',
        'Actions:',
        '- create: Create a project. Requires: name, owner',
        '- update: Rename or re-tag a project. Requires: id',
        '- delete: Delete a project. Requires: id [DESTRUCTIVE]',
        '- list',
        '- search',
      ].join('\n'),
    );
  });

  it('summarises modules in declaration order with their descriptions', () => {
    const groups = [
      { name: 'users', description: 'User accounts' },
      { name: 'billing', description: undefined },
    ];
    expect(generateDescription({ description: 'Platform administration', actions: grouped, groups }))
      .toMatchInlineSnapshot(`
      "Platform administration
      Modules:
      - users (create, delete, list): User accounts
      - billing (refund)
      Actions:
      - users.create: Create a user. Requires: email
      - users.delete: Delete a user. Requires: id [DESTRUCTIVE]
      - billing.refund: Requires: invoiceId [DESTRUCTIVE]
      - users.list"
    `);
  });

  it('starts with the action list when the tool has no description', () => {
    expect(
      generateDescription({ description: undefined, actions: [spec('list'), spec('create', { required: ['name'] })] }),
    ).toBe('Actions:\n- list\n- create: Requires: name');
  });

  it('gathers actions by group, dropping declared groups without actions', () => {
    expect(
      groupSummaries(grouped, [
        { name: 'empty', description: 'x' },
        { name: 'billing', description: 'Money' },
      ]),
    ).toEqual([
      { name: 'billing', description: 'Money', actions: ['refund'] },
      { name: 'users', description: undefined, actions: ['create', 'delete', 'list'] },
    ]);
  });
});
