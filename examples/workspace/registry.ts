import { createPresenter, initFusion, type HandlerExtra } from 'mcp-fusion';
import { z } from 'zod';
import { WorkspaceDb, type CartItem } from './db.js';
import { generateReport } from './reports.js';

/** The handler context of the workspace server. */
export interface AppContext {
  /** The shared workspace (sprints, tasks, users): one team's data, the same for every caller. */
  db: WorkspaceDb;
  /**
   * The cart of the checkout this call acts on, keyed by `extra.workflow.key`: the session in the legacy era,
   * the instance named by `checkout_id` in the modern era. Never a shared default: two clients never share a cart.
   */
  cart(): CartItem[];
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

// FSM State Gate — the seeds' checkout workflow. After paying, adding an item starts the next purchase
// (a legacy session keeps one checkout for its whole life, so `confirmed` is not final).
export const checkout = f.fsm({
  id: 'checkout',
  initial: 'empty',
  states: {
    empty: { on: { ADD_ITEM: 'has_items' } },
    has_items: { on: { CHECKOUT: 'payment', CLEAR: 'empty' } },
    payment: { on: { PAY: 'confirmed', CANCEL: 'has_items' } },
    confirmed: { on: { ADD_ITEM: 'has_items' } },
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
  .action('cart.add_item')
  .describe('Add a product to the cart')
  .bindState(['empty', 'has_items', 'confirmed'], 'ADD_ITEM')
  .returns(cartPresenter)
  .withString('product_id', 'Product ID')
  .withOptionalNumber('quantity', 'How many (default 1)')
  .handle((input, ctx) => {
    const cart = ctx.cart();
    ctx.db.addToCart(cart, input.product_id, input.quantity ?? 1);
    return { items: cart };
  });

const checkoutCart = f
  .action('cart.checkout')
  .describe('Proceed to payment')
  .bindState('has_items', 'CHECKOUT')
  .handle((_input, ctx) => ({ total_items: ctx.cart().reduce((n, i) => n + i.quantity, 0) }));

const cancelCheckout = f
  .action('cart.cancel')
  .describe('Leave payment and go back to the cart (the items stay)')
  .bindState('payment', 'CANCEL')
  .handle((_input, ctx) => ({ items: ctx.cart() }));

const pay = f
  .action('cart.pay')
  .describe('Process payment')
  .bindState('payment', 'PAY')
  .withString('payment_method', 'Payment method ID')
  .handle((input, ctx) => {
    const order = ctx.db.addOrder(ctx.cart().splice(0), input.payment_method);
    return { order_id: order.id, status: 'paid' };
  });

const clear = f
  .mutation('cart.clear')
  .describe('Remove every item from the cart')
  .bindState('has_items', 'CLEAR')
  .handle((_input, ctx) => {
    ctx.cart().splice(0);
    return 'Cart cleared.';
  });

// `.bindState('*')`: joins the checkout in every state without moving it, so it reads the same cart as the
// tools that fill it (the session's in the legacy era, the one named by checkout_id in the modern era).
const viewCart = f
  .query('cart.view')
  .describe('View current cart contents')
  .bindState('*')
  .handle((_input, ctx) => ({ items: ctx.cart() }));

// Grouped tool: many operations behind one MCP tool, selected by `action` (architecture.md).
const platform = f
  .tool('platform')
  .describe('Workspace administration.')
  .group('users', 'User accounts', (g) =>
    g
      .action({
        name: 'list',
        description: 'List users',
        readOnly: true,
        handler: (_input, ctx) => [...ctx.db.users.values()],
      })
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
  .handle(
    ({ goal }, ctx) =>
      `Plan a sprint to ${goal}. Current sprints: ${[...ctx.db.sprints.values()].map((s) => s.name).join(', ')}.`,
  );

const sprintsResource = f
  .resource('workspace://sprints')
  .name('sprints')
  .describe('Every sprint, as JSON')
  .mimeType('application/json')
  .reflects('sprints.*')
  .handle((_uri, ctx) => JSON.stringify([...ctx.db.sprints.values()]));

/** Every tool, prompt and resource of the workspace server, registered once. */
export const registry = f.registry();
registry.registerAll(
  listCountries,
  listSprints,
  createSprint,
  updateTask,
  addItem,
  checkoutCart,
  cancelCheckout,
  pay,
  clear,
  viewCart,
  platform,
  planSprint,
  sprintsResource,
);
registry.register(generateReport);

/** Builds the attach/serve options over one database. */
export function workspaceOptions(db = new WorkspaceDb()) {
  return {
    name: 'mcp-fusion-workspace',
    version: '1.0.0',
    fsm: checkout,
    contextFactory: (extra: HandlerExtra): AppContext => ({
      db,
      cart: () => {
        // Only the checkout's tools (bound with .bindState) act on a cart; they always get their instance.
        if (extra.workflow === undefined)
          throw new Error('this tool is not part of the checkout workflow, so it has no cart');
        return db.cart(extra.workflow.key);
      },
    }),
  };
}
