/** A small in-memory database for the workspace example, with budgets so that no client can fill the process. */
export interface Sprint {
  id: string;
  name: string;
  taskIds: string[];
}

export interface Task {
  id: string;
  title: string;
  sprintId: string;
}

export interface CartItem {
  productId: string;
  quantity: number;
}

/** Budgets of the demo database: every write past one is refused with what was wrong and what to do. */
export interface WorkspaceDbLimits {
  /** Longest name, title, email or product id, in characters (200). */
  maxTextLength: number;
  /** Most records of one kind: sprints, users, orders, items in one cart (1,000; carts get ten times as many). */
  maxRecords: number;
  /** Most bytes of text (UTF-8) stored in sprints, tasks, users and orders together (1 MiB). */
  maxBytes: number;
}

export const DEFAULT_DB_LIMITS: Readonly<WorkspaceDbLimits> = Object.freeze({
  maxTextLength: 200,
  maxRecords: 1_000,
  maxBytes: 1024 * 1024,
});

export class WorkspaceDb {
  readonly countries = [
    { code: 'BR', name: 'Brazil' },
    { code: 'DE', name: 'Germany' },
    { code: 'JP', name: 'Japan' },
    { code: 'US', name: 'United States' },
  ];
  readonly sprints = new Map<string, Sprint>([['s1', { id: 's1', name: 'Sprint 1', taskIds: ['t1'] }]]);
  readonly tasks = new Map<string, Task>([['t1', { id: 't1', title: 'Write the README', sprintId: 's1' }]]);
  readonly carts = new Map<string, CartItem[]>();
  readonly users = new Map<string, { id: string; email: string }>([['u1', { id: 'u1', email: 'ana@example.com' }]]);
  readonly orders: Array<{ id: string; items: CartItem[]; paidWith?: string }> = [];
  readonly limits: Readonly<WorkspaceDbLimits>;
  #next = 2;
  #orderCount = 0;
  #bytes = 0;

  constructor(limits: Partial<WorkspaceDbLimits> = {}) {
    this.limits = Object.freeze({ ...DEFAULT_DB_LIMITS, ...limits });
  }

  /** Bytes of text stored now (what `maxBytes` bounds). */
  get bytes(): number {
    return this.#bytes;
  }

  createSprint(name: string): Sprint {
    this.#store('sprint name', name, 'sprints', this.sprints.size);
    const sprint = { id: `s${this.#next++}`, name, taskIds: [] };
    this.sprints.set(sprint.id, sprint);
    return sprint;
  }

  updateTask(id: string, patch: { title?: string; sprintId?: string }): Task {
    const task = this.tasks.get(id);
    if (task === undefined) throw new Error(`No task "${id}"; call tasks with an existing id such as "t1".`);
    if (patch.title !== undefined)
      this.#check('task title', patch.title, byteLength(patch.title) - byteLength(task.title));
    if (patch.sprintId !== undefined && patch.sprintId !== task.sprintId) {
      const to = this.sprints.get(patch.sprintId);
      if (to === undefined) throw new Error(`No sprint "${patch.sprintId}"; call sprints.list to see the sprints.`);
      const from = this.sprints.get(task.sprintId);
      if (from !== undefined) from.taskIds = from.taskIds.filter((t) => t !== id);
      to.taskIds.push(id);
      task.sprintId = patch.sprintId;
    }
    if (patch.title !== undefined) {
      this.#bytes += byteLength(patch.title) - byteLength(task.title);
      task.title = patch.title;
    }
    return task;
  }

  createUser(email: string): { id: string; email: string } {
    this.#store('email', email, 'users', this.users.size);
    const user = { id: `u${this.users.size + 1}`, email };
    this.users.set(user.id, user);
    return user;
  }

  /** Adds an item to a cart (at most `maxRecords` items, each product id at most `maxTextLength` characters). */
  addToCart(cart: CartItem[], productId: string, quantity: number): void {
    this.#check('product id', productId, 0);
    if (cart.length >= this.limits.maxRecords)
      throw new Error(
        `This cart already holds ${this.limits.maxRecords} items, the most the demo database keeps in one cart; check out or clear it first.`,
      );
    cart.push({ productId, quantity });
  }

  /** Records a paid order; past `maxRecords` orders the oldest is forgotten (the demo keeps a window, not a ledger). */
  addOrder(items: CartItem[], paidWith: string): { id: string } {
    this.#check('payment method', paidWith, 0);
    const order = { id: `o${++this.#orderCount}`, items, paidWith };
    this.orders.push(order);
    if (this.orders.length > this.limits.maxRecords) this.orders.shift();
    return order;
  }

  /** The cart of a checkout; past ten times `maxRecords` carts the least recently used one is dropped. */
  cart(key: string): CartItem[] {
    let cart = this.carts.get(key);
    if (cart !== undefined) this.carts.delete(key);
    else cart = [];
    this.carts.set(key, cart);
    if (this.carts.size > this.limits.maxRecords * 10) this.carts.delete(this.carts.keys().next().value!);
    return cart;
  }

  /** Checks a new text and the room for it, then counts its bytes. */
  #store(what: string, text: string, kind: string, count: number): void {
    this.#check(what, text, byteLength(text));
    if (count >= this.limits.maxRecords)
      throw new Error(
        `The demo database already holds ${this.limits.maxRecords} ${kind}, its most; remove some or restart the server to reset it.`,
      );
    this.#bytes += byteLength(text);
  }

  #check(what: string, text: string, addedBytes: number): void {
    if (text.length > this.limits.maxTextLength) {
      throw new Error(
        `The ${what} is ${text.length} characters long, over the limit of ${this.limits.maxTextLength}; use a shorter ${what}.`,
      );
    }
    if (this.#bytes + addedBytes > this.limits.maxBytes) {
      throw new Error(
        `The demo database holds ${this.#bytes} bytes of text, and this ${what} would take it past its limit of ${this.limits.maxBytes}; remove some data or restart the server to reset it.`,
      );
    }
  }
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
