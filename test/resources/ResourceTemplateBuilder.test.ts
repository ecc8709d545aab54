import { describe, expect, it } from 'vitest';
import { detachedExtra } from '../../src/builder/detachedExtra.js';
import { ResourceTemplateBuilder } from '../../src/resources/ResourceTemplateBuilder.js';

const extra = detachedExtra();

describe('ResourceTemplateBuilder', () => {
  it('builds a frozen template that reads with the decoded variables', async () => {
    const built = new ResourceTemplateBuilder<{ prefix: string }, 'test://template/{id}/data'>(
      'test://template/{id}/data',
    )
      .name('template-data')
      .describe('Data by id')
      .mimeType('application/json')
      .reflects('items.*')
      .handle((uri, { id }, ctx) => JSON.stringify({ id, templateTest: true, data: `${ctx.prefix}${id}`, uri }));
    expect(built.definition).toEqual({
      uriTemplate: 'test://template/{id}/data',
      name: 'template-data',
      description: 'Data by id',
      mimeType: 'application/json',
    });
    expect([built.kind, built.reflects, built.list, Object.isFrozen(built)]).toEqual([
      'resourceTemplate',
      ['items.*'],
      undefined,
      true,
    ]);
    const vars = built.compiled.match('test://template/123/data')!;
    expect(await built.read('test://template/123/data', vars, { prefix: 'Data for ID: ' }, extra)).toEqual({
      contents: [
        {
          uri: 'test://template/123/data',
          mimeType: 'application/json',
          text: '{"id":"123","templateTest":true,"data":"Data for ID: 123","uri":"test://template/123/data"}',
        },
      ],
    });
  });

  it('answers not found when the handler returns nothing', async () => {
    const built = new ResourceTemplateBuilder('app://items/{id}').handle((_uri, { id }) =>
      id === '1' ? 'one' : undefined,
    );
    expect(await built.read('app://items/2', { id: '2' }, undefined, extra)).toBeUndefined();
  });

  it('lists concrete resources with the template defaults', async () => {
    const built = new ResourceTemplateBuilder<{ ids: string[] }>('app://items/{id}')
      .mimeType('text/plain')
      .list((ctx) =>
        ctx.ids.map((id) => ({
          uri: `app://items/${id}`,
          ...(id === '2' ? { name: 'Two', mimeType: 'text/markdown' } : {}),
        })),
      )
      .handle(() => '');
    expect(await built.list!({ ids: ['1', '2'] }, extra)).toEqual([
      { uri: 'app://items/1', name: 'app://items/1', mimeType: 'text/plain' },
      { uri: 'app://items/2', name: 'Two', mimeType: 'text/markdown' },
    ]);
    const broken = new ResourceTemplateBuilder('app://b/{id}')
      .list(() => [{ name: 'no uri' } as never])
      .handle(() => '');
    await expect(broken.list!(undefined, extra)).rejects.toThrowErrorMatchingInlineSnapshot(
      `[WireError: Resource template "app://b/{id}" listed an item without a uri at index 0; give every listed resource a uri.]`,
    );
  });

  it('is immutable, refuses changes once built, and pins its errors', () => {
    const base = new ResourceTemplateBuilder('app://items/{id}');
    const named = base.name('items');
    expect(named).not.toBe(base);
    named.handle(() => '');
    expect(() => named.describe('x')).toThrowErrorMatchingInlineSnapshot(
      `[FrozenBuilderError: Resource template "app://items/{id}" is already built; cannot change it. Start a new builder with f.resourceTemplate("app://items/{id}") instead.]`,
    );
    expect(() => new ResourceTemplateBuilder('items/{id}').handle(() => '')).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Resource template "items/{id}" has no scheme; use an absolute URI such as "app://notes/{id}".]`,
    );
    expect(() => new ResourceTemplateBuilder('app://items/{id}').list('x' as never)).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Resource template "app://items/{id}" passes .list() something that is not a function; pass (ctx, extra) => [{ uri, name }].]`,
    );
  });
});
