import { encode } from '@toon-format/toon';
import { describe, expect, it } from 'vitest';
import { generateToonDescription } from '../../../src/builder/strategies/generateToonDescription.js';
import type { ToonEncode } from '../../../src/builder/strategies/types.js';
import { spec } from './fixture.js';

describe('generateToonDescription', () => {
  it('encodes ungrouped actions as one pipe-delimited table', () => {
    const actions = [
      spec('list', { description: 'List projects', readOnly: true }),
      spec('create', { required: ['name', 'owner'] }),
      spec('delete', { required: ['id'], destructive: true }),
    ];
    expect(generateToonDescription({ description: 'Manage projects', actions }, encode)).toMatchInlineSnapshot(`
      "Manage projects
      actions[3|]{action|description|requires|destructive}:
        list|List projects|""|false
        create|""|name,owner|false
        delete|""|id|true"
    `);
  });

  it('encodes grouped actions as one table per module', () => {
    const actions = [
      spec('users.create', { description: 'Create a user', required: ['email'] }),
      spec('billing.refund', { required: ['invoiceId'], destructive: true }),
      spec('users.delete', { required: ['id'], destructive: true }),
    ];
    expect(generateToonDescription({ description: undefined, actions }, encode)).toMatchInlineSnapshot(`
      "users[2|]{action|description|requires|destructive}:
        create|Create a user|email|false
        delete|""|id|true
      billing[1|]{action|description|requires|destructive}:
        refund|""|invoiceId|true"
    `);
  });

  it('is pure: the encoder is passed in', () => {
    const seen: unknown[] = [];
    const fake: ToonEncode = (value, options) => {
      seen.push(value, options);
      return '<toon>';
    };
    expect(generateToonDescription({ description: 'T', actions: [spec('a', { description: 'A' })] }, fake)).toBe(
      'T\n<toon>',
    );
    expect(seen).toEqual([
      { actions: [{ action: 'a', description: 'A', requires: '', destructive: false }] },
      { delimiter: '|' },
    ]);
  });
});
