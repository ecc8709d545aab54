/** A small in-memory database for the workspace example. */
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
  #next = 2;

  createSprint(name: string): Sprint {
    const sprint = { id: `s${this.#next++}`, name, taskIds: [] };
    this.sprints.set(sprint.id, sprint);
    return sprint;
  }

  updateTask(id: string, patch: { title?: string; sprintId?: string }): Task {
    const task = this.tasks.get(id);
    if (task === undefined) throw new Error(`No task "${id}"; call tasks with an existing id such as "t1".`);
    if (patch.sprintId !== undefined && patch.sprintId !== task.sprintId) {
      const to = this.sprints.get(patch.sprintId);
      if (to === undefined) throw new Error(`No sprint "${patch.sprintId}"; call sprints.list to see the sprints.`);
      const from = this.sprints.get(task.sprintId);
      if (from !== undefined) from.taskIds = from.taskIds.filter((t) => t !== id);
      to.taskIds.push(id);
      task.sprintId = patch.sprintId;
    }
    if (patch.title !== undefined) task.title = patch.title;
    return task;
  }

  createUser(email: string): { id: string; email: string } {
    const user = { id: `u${this.users.size + 1}`, email };
    this.users.set(user.id, user);
    return user;
  }

  cart(key: string): CartItem[] {
    let cart = this.carts.get(key);
    if (cart === undefined) this.carts.set(key, (cart = []));
    return cart;
  }
}
