import { createPresenter, initFusion, type ToolExtra } from 'mcp-fusion';
import { z } from 'zod';
import { WorkspaceDb } from './db.js';

/** The handler context of the workspace server. */
export interface AppContext {
  db: WorkspaceDb;
  /** Whose cart: the workflow instance (session or handle), else the session. */
  cartKey: string;
}

export const f = initFusion<AppContext>();

// State Sync — the seeds' sprints/tasks/countries example.
const listCountries = f
  .query('countries.list')
  .describe('List all country codes')
  .cached()
  .handle((_input, ctx) => ctx.db.countries);

const listSprints = f
  .query('sprints.list')
  .describe('List workspace sprints')
  .stale()
  .handle((_input, ctx) => [...ctx.db.sprints.values()]);

const createSprint = f
  .action('sprints.create')
  .describe('Create a new sprint')
  .invalidates('sprints.*')
  .withString('name', 'Sprint name')
  .handle((input, ctx) => ctx.db.createSprint(input.name));

const updateTask = f
  .action('tasks.update')
  .describe('Update a task')
  .invalidates('tasks.*', 'sprints.*')
  .withString('id', 'Task ID')
  .withOptionalString('title', 'New title')
  .withOptionalString('sprint_id', 'Move the task to this sprint')
  .handle((input, ctx) =>
    ctx.db.updateTask(input.id, {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.sprint_id !== undefined ? { sprintId: input.sprint_id } : {}),
    }),
  );

// FSM State Gate — the seeds' checkout workflow.
export const checkout = f.fsm({
  id: 'checkout',
  initial: 'empty',
  states: {
    empty: { on: { ADD_ITEM: 'has_items' } },
    has_items: { on: { CHECKOUT: 'payment', CLEAR: 'empty' } },
    payment: { on: { PAY: 'confirmed', CANCEL: 'has_items' } },
    confirmed: { type: 'final' },
  },
});

// suggestActions (HATEOAS) on top of the gate: suggestions of tools hidden in the new state are left out.
const cartPresenter = createPresenter('Cart')
  .schema(z.object({ items: z.array(z.object({ productId: z.string(), quantity: z.number() })) }))
  .suggestActions((cart) => [
    { tool: 'cart.checkout', reason: `Ready to pay for ${cart.items.length} item(s)?` },
    { tool: 'cart.pay', reason: 'Pay once the checkout has started.' },
  ]);

const addItem = f
  .mutation('cart.add_item')
  .describe('Add a product to the cart')
  .bindState(['empty', 'has_items'], 'ADD_ITEM')
  .returns(cartPresenter)
  .withString('product_id', 'Product ID')
  .withOptionalNumber('quantity', 'How many (default 1)')
  .handle((input, ctx) => {
    const cart = ctx.db.cart(ctx.cartKey);
    cart.push({ productId: input.product_id, quantity: input.quantity ?? 1 });
    return { items: cart };
  });

const checkoutCart = f
  .mutation('cart.checkout')
  .describe('Proceed to payment')
  .bindState('has_items', 'CHECKOUT')
  .handle((_input, ctx) => ({ total_items: ctx.db.cart(ctx.cartKey).reduce((n, i) => n + i.quantity, 0) }));

const pay = f
  .mutation('cart.pay')
  .describe('Process payment')
  .bindState('payment', 'PAY')
  .withString('payment_method', 'Payment method ID')
  .handle((input, ctx) => {
    const items = ctx.db.cart(ctx.cartKey).splice(0);
    const order = { id: `o${ctx.db.orders.length + 1}`, items, paidWith: input.payment_method };
    ctx.db.orders.push(order);
    return { order_id: order.id, status: 'paid' };
  });

const clear = f
  .mutation('cart.clear')
  .describe('Remove every item from the cart')
  .bindState('has_items', 'CLEAR')
  .handle((_input, ctx) => {
    ctx.db.cart(ctx.cartKey).splice(0);
    return 'Cart cleared.';
  });

const viewCart = f
  .query('cart.view')
  .describe('View current cart contents')
  .handle((_input, ctx) => ({ items: ctx.db.cart(ctx.cartKey) }));

// Grouped tool: many operations behind one MCP tool, selected by `action` (architecture.md).
const platform = f
  .tool('platform')
  .describe('Workspace administration.')
  .group('users', 'User accounts', (g) =>
    g
      .action({ name: 'list', description: 'List users', readOnly: true, handler: (_input, ctx) => [...ctx.db.users.values()] })
      .action({
        name: 'create',
        description: 'Invite a user',
        schema: z.object({ email: z.string().describe('Email address') }),
        handler: (input, ctx) => ctx.db.createUser(input.email),
      })
      .action({
        name: 'delete',
        description: 'Remove a user',
        destructive: true,
        schema: z.object({ id: z.string().describe('User ID') }),
        handler: (input, ctx) => ({ deleted: ctx.db.users.delete(input.id) }),
      }),
  );

// A prompt and a resource that mirrors the sprints domain.
const planSprint = f
  .prompt('plan_sprint')
  .describe('Draft a plan for the next sprint')
  .argument('goal', { description: 'What the sprint should achieve', required: true })
  .handle(({ goal }, ctx) => `Plan a sprint to ${goal}. Current sprints: ${[...ctx.db.sprints.values()].map((s) => s.name).join(', ')}.`);

const sprintsResource = f
  .resource('workspace://sprints')
  .name('sprints')
  .describe('Every sprint, as JSON')
  .mimeType('application/json')
  .reflects('sprints.*')
  .handle((_uri, ctx) => JSON.stringify([...ctx.db.sprints.values()]));

/** Every tool, prompt and resource of the workspace server, registered once. */
export const registry = f.registry();
registry.registerAll(listCountries, listSprints, createSprint, updateTask, addItem, checkoutCart, pay, clear, viewCart, platform, planSprint, sprintsResource);

/** Builds the attach/serve options over one database. */
export function workspaceOptions(db = new WorkspaceDb()) {
  return {
    name: 'mcp-fusion-workspace',
    version: '1.0.0',
    fsm: checkout,
    contextFactory: (extra: ToolExtra): AppContext => ({ db, cartKey: extra.workflow?.key ?? extra.sessionId ?? 'default' }),
  };
}
