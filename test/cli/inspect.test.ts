import { describe, expect, it } from 'vitest';
import { registry } from '../../examples/workspace/registry.js';
import { cli, example, fixture } from './_run.js';

// The example grows; what the checkout workflow gates does not.
const gated: Record<string, string[]> = {
  empty: ['cart.add_item', 'cart.view'],
  has_items: ['cart.add_item', 'cart.checkout', 'cart.clear', 'cart.view'],
  payment: ['cart.cancel', 'cart.pay', 'cart.view'],
  confirmed: ['cart.add_item', 'cart.view'],
};
// What tools/list shows: a grouped builder (the example's `platform`) is one tool by default.
const ungated = [...new Set(registry.tools.filter((t) => t.fsm === undefined).map((t) => t.group?.tool ?? t.name))];
const columns = (stdout: string, name: string): string[] | undefined =>
  stdout
    .split('\n')
    .find((line) => line.startsWith(`${name} `))
    ?.split(/\s{2,}/);

describe('mcp-fusion inspect', () => {
  it('refuses, as the server does, a registry whose tools are bound to states when no machine is found', async () => {
    const { code, stdout, stderr } = await cli('inspect', fixture('bound-without-gate.ts'));
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain(
      'test/cli/fixtures/bound-without-gate.ts: Tool "order.pay" is bound to workflow states with .bindState(), but no workflow gate is served',
    );
    expect(stderr).toContain('Pass the machine as the `fsm` option');
  });

  it('prints one row per tool: kind, annotations, cache directive, invalidations, FSM states', async () => {
    const { code, stdout, stderr } = await cli('inspect', fixture('tasks-registry.ts'));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatchInlineSnapshot(`
      "test/cli/fixtures/tasks-registry.ts: 3 tools, FSM "tasks" (initial "empty"; states empty, has_tasks)

      NAME         KIND      ANNOTATIONS  CACHE     INVALIDATES  FSM STATES        SENDS
      tasks.list   query     readOnly     no-store  -            (all)             -
      tasks.add    action    -            -         tasks.*      empty, has_tasks  ADD
      tasks.clear  mutation  destructive  -         tasks.*      has_tasks         CLEAR
      "
    `);
  });

  it('prints the example server, State Sync and checkout gate included', async () => {
    const { code, stdout } = await cli('inspect', example);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe(
      `examples/workspace/registry.ts: ${registry.size} tools, FSM "checkout" (initial "empty"; states empty, has_items, payment, confirmed)`,
    );
    expect(stdout.split('\n')[2]!.split(/\s{2,}/)).toEqual([
      'NAME',
      'EXPOSED AS',
      'KIND',
      'ANNOTATIONS',
      'CACHE',
      'INVALIDATES',
      'FSM STATES',
      'SENDS',
    ]);
    expect(columns(stdout, 'countries.list')).toEqual([
      'countries.list',
      'countries.list',
      'query',
      'readOnly',
      'immutable',
      '-',
      '(all)',
      '-',
    ]);
    expect(columns(stdout, 'sprints.list')).toEqual([
      'sprints.list',
      'sprints.list',
      'query',
      'readOnly',
      'no-store',
      '-',
      '(all)',
      '-',
    ]);
    expect(columns(stdout, 'tasks.update')).toEqual([
      'tasks.update',
      'tasks.update',
      'action',
      '-',
      '-',
      'tasks.*, sprints.*',
      '(all)',
      '-',
    ]);
    // Only what destroys data is marked destructive: adding to a cart or paying is not; clearing it is.
    expect(columns(stdout, 'cart.add_item')).toEqual([
      'cart.add_item',
      'cart.add_item',
      'action',
      '-',
      '-',
      '-',
      'empty, has_items, confirmed',
      'ADD_ITEM',
    ]);
    expect(columns(stdout, 'cart.pay')).toEqual(['cart.pay', 'cart.pay', 'action', '-', '-', '-', 'payment', 'PAY']);
    expect(columns(stdout, 'cart.clear')).toEqual([
      'cart.clear',
      'cart.clear',
      'mutation',
      'destructive',
      '-',
      '-',
      'has_items',
      'CLEAR',
    ]);
    expect(columns(stdout, 'cart.view')).toEqual([
      'cart.view',
      'cart.view',
      'query',
      'readOnly',
      '-',
      '-',
      'empty, has_items, payment, confirmed',
      '-',
    ]);
    // The grouped builder's actions keep their canonical names and are listed as the one tool "platform".
    expect(columns(stdout, 'platform.users.create')?.slice(0, 3)).toEqual([
      'platform.users.create',
      'platform',
      'action',
    ]);
  });

  it('--json gives every column as data', async () => {
    const { code, stdout } = await cli('inspect', example, '--json');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.fsm).toEqual({
      id: 'checkout',
      initial: 'empty',
      states: ['empty', 'has_items', 'payment', 'confirmed'],
    });
    expect(report.tools.map((t: { name: string }) => t.name)).toEqual(registry.tools.map((t) => t.name));
    expect(report.tools.find((t: { name: string }) => t.name === 'tasks.update')).toEqual({
      name: 'tasks.update',
      exposedAs: 'tasks.update',
      kind: 'action',
      annotations: { readOnlyHint: false, destructiveHint: false },
      cacheControl: null,
      invalidates: ['tasks.*', 'sprints.*'],
      states: null,
      event: null,
      scopes: [],
    });
  });

  it.each(Object.entries(gated))(
    '--state %s --json prints exactly the tools/list of that state',
    async (state, names) => {
      const { code, stdout } = await cli('inspect', example, '--state', state, '--json');
      expect(code).toBe(0);
      const list = JSON.parse(stdout) as { tools: Array<{ name: string; description?: string }> };
      expect(list.tools.map((t) => t.name).sort()).toEqual([...ungated, ...names].sort());
      expect(list.tools.find((t) => t.name === 'sprints.list')?.description).toBe(
        'List workspace sprints [Cache-Control: no-store]',
      );
    },
  );

  it('--state prints the listed tools with their decorated descriptions', async () => {
    const { stdout } = await cli('inspect', fixture('tasks-registry.ts'), '--state', 'has_tasks');
    expect(stdout).toMatchInlineSnapshot(`
      "tools/list in state "has_tasks" of FSM "tasks": 3 tools

      NAME         ANNOTATIONS  DESCRIPTION
      tasks.list   readOnly     List tasks [Cache-Control: no-store]
      tasks.add    -            Add a task
      tasks.clear  destructive  Delete every task
      "
    `);
    expect((await cli('inspect', fixture('tasks-registry.ts'), '--state', 'empty')).stdout).not.toContain(
      'tasks.clear',
    );
  });

  it('names the states to choose from when --state is unknown', async () => {
    const { code, stderr } = await cli('inspect', example, '--state', 'shipped');
    expect(code).toBe(2);
    expect(stderr).toBe(
      'error: FSM "checkout" has no state "shipped"; use one of: empty, has_items, payment, confirmed.\n',
    );
  });

  it('says where it looked for a missing module', async () => {
    const { code, stderr } = await cli('inspect', 'src/nope.ts');
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^error: Cannot find module "src\/nope\.ts" \(looked at .*src\/nope\.ts\)\. Pass the path of the file that exports your registry/,
    );
  });

  it('lists the exports of a module without a registry', async () => {
    const { code, stderr } = await cli('inspect', fixture('no-registry.ts'));
    expect(code).toBe(2);
    expect(stderr).toBe(
      'error: "test/cli/fixtures/no-registry.ts" exports no tool registry (exports: options, tools). Export it as `export const registry = f.registry()…` or as the default export, or name the export with --registry <name>.\n',
    );
  });

  it('rejects a --registry export that is not a registry', async () => {
    const { code, stderr } = await cli('inspect', example, '--registry', 'checkout');
    expect(code).toBe(2);
    expect(stderr).toBe(
      'error: Export "checkout" of "examples/workspace/registry.ts" is not a ToolRegistry; check the name given with --registry.\n',
    );
  });

  it('shows the scopes column when a tool requires scopes', async () => {
    const { code, stdout } = await cli('inspect', fixture('scoped-registry.ts'));
    expect(code).toBe(0);
    expect(columns(stdout, 'notes.delete')?.at(-1)).toBe('notes:write');
    expect(columns(stdout, 'admin.purge')?.at(-1)).toBe('admin');
    expect(columns(stdout, 'notes.list')?.at(-1)).toBe('-');
  });

  it('--scopes prints what tools/list returns to a principal with those scopes', async () => {
    const reader = await cli('inspect', fixture('scoped-registry.ts'), '--scopes', 'notes:read');
    expect({ code: reader.code, stderr: reader.stderr }).toEqual({ code: 0, stderr: '' });
    expect(reader.stdout.split('\n')[0]).toBe('tools/list for scopes notes:read: 2 tools');
    expect(columns(reader.stdout, 'notes.delete')).toBeUndefined();
    // The grouped builder `admin` is one tool (the default exposition), narrowed to the actions the scopes allow.
    expect(columns(reader.stdout, 'admin')).toEqual(['admin', 'readOnly', 'Administration']);
    expect(reader.stdout).toContain('- stats');
    expect(reader.stdout).not.toContain('purge');
    const admin = await cli('inspect', fixture('scoped-registry.ts'), '--scopes', 'notes:write,admin', '--json');
    const tools = JSON.parse(admin.stdout).tools as Array<{
      name: string;
      inputSchema: { properties: { action: { enum: string[] } } };
    }>;
    expect(tools.map((t) => t.name)).toEqual(['notes.list', 'notes.delete', 'admin']);
    expect(tools[2]!.inputSchema.properties.action.enum).toEqual(['stats', 'purge']);
  });
});
