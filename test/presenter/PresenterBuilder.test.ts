import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefinitionError, initFusion } from '../../src/index.js';
import { createPresenter, PresenterBuilder } from '../../src/presenter/index.js';
import { resolvePresenter } from '../../src/presenter/PresenterBuilder.js';
import { thrown } from '../fsm/fixtures.js';

const cartItem = z.object({ id: z.string(), quantity: z.number() });

describe('createPresenter', () => {
  it('is an immutable builder: each step returns a new builder', () => {
    const base = createPresenter('CartItem');
    const typed = base.schema(cartItem);
    const suggesting = typed.suggestActions(() => [{ tool: 'cart.checkout', reason: 'Ready to pay?' }]);
    expect(typed).not.toBe(base);
    expect(suggesting).not.toBe(typed);
    expect(base.build()).toEqual({ name: 'CartItem', schema: undefined, suggest: undefined });
    expect(typed.build().schema).toBe(cartItem);
    expect(typed.build().suggest).toBeUndefined();
    expect(suggesting.build().suggest).toBeTypeOf('function');
  });

  it('builds one frozen presenter per builder', () => {
    const builder = createPresenter('CartItem').schema(cartItem);
    const built = builder.build();
    expect(Object.isFrozen(built)).toBe(true);
    expect(builder.build()).toBe(built);
    expect(() => {
      (built as { name: string }).name = 'Other';
    }).toThrow(TypeError);
  });

  it('types suggestActions with the schema output', () => {
    createPresenter('CartItem')
      .schema(cartItem)
      .suggestActions((item) => (item.quantity > 0 ? [{ tool: 'cart.checkout', reason: `Pay for ${item.id}?` }] : []));
  });

  it('fails fast on a missing name, a non-zod schema or a non-function', () => {
    expect(thrown(() => createPresenter('  ')).message).toMatchInlineSnapshot(
      `"createPresenter() needs a name, such as createPresenter("CartItem"); it is shown in validation errors."`,
    );
    expect(thrown(() => createPresenter('CartItem').schema({} as z.ZodType)).message).toMatchInlineSnapshot(
      `"Presenter "CartItem" got a schema that is not a zod schema; pass one such as z.object({ id: z.string() })."`,
    );
    expect(
      thrown(() => createPresenter('CartItem').suggestActions('cart.checkout' as never)).message,
    ).toMatchInlineSnapshot(
      `"Presenter "CartItem" got a non-function in .suggestActions(); pass (data) => [{ tool, reason }]."`,
    );
    expect(
      thrown(() =>
        createPresenter('CartItem')
          .suggestActions(() => [])
          .schema(cartItem),
      ).message,
    ).toMatchInlineSnapshot(
      `"Presenter "CartItem" sets .schema() after .suggestActions(); call .schema() first so suggestActions receives the validated data."`,
    );
  });

  it('resolves what .returns() received: a builder, a built presenter, nothing else', () => {
    const builder = createPresenter('CartItem');
    expect(resolvePresenter(builder, 'cart.add_item')).toBe(builder.build());
    expect(resolvePresenter(builder.build(), 'cart.add_item')).toBe(builder.build());
    const error = thrown(() =>
      resolvePresenter({ name: 'fake', schema: undefined, suggest: undefined }, 'cart.add_item'),
    );
    expect(error).toBeInstanceOf(DefinitionError);
    expect(error.message).toMatchInlineSnapshot(
      `"Tool "cart.add_item" passes something that is not a presenter to .returns(); pass createPresenter("Name").schema(...) or its .build()."`,
    );
    expect(builder).toBeInstanceOf(PresenterBuilder);
  });

  it('is stored by the fluent builder as tool.presenter', () => {
    const presenter = createPresenter('CartItem').schema(cartItem);
    const tool = initFusion()
      .mutation('cart.add_item')
      .returns(presenter)
      .handle(() => ({ id: 'p1', quantity: 1 }));
    expect(tool.presenter).toBe(presenter);
  });
});
