import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registry } from '../../examples/workspace/registry.js';
import { parseXmlRoot } from './_xml.js';
import { cli, example, fixture } from './_run.js';

describe('mcp-fusion diagram', () => {
  it('prints the FSM as Mermaid: tools per state, the triggering tool per transition', async () => {
    const { code, stdout } = await cli('diagram', fixture('tasks-registry.ts'));
    expect(code).toBe(0);
    expect(stdout).toMatchInlineSnapshot(`
      "---
      title: tasks
      ---
      stateDiagram-v2
        empty : tasks.add
        has_tasks : tasks.add
        has_tasks : tasks.clear
        [*] --> empty
        empty --> has_tasks : tasks.add (ADD)
        has_tasks --> empty : tasks.clear (CLEAR)
        note right of empty
          Visible in every state: tasks.list
        end note
      "
    `);
  });

  it('draws the checkout workflow of the example server', async () => {
    const { code, stdout } = await cli('diagram', example);
    expect(code).toBe(0);
    const ungated = registry.tools.filter((t) => t.fsm === undefined).map((t) => t.name);
    expect(stdout).toContain(
      [
        'stateDiagram-v2',
        '  empty : cart.add_item',
        '  empty : cart.view',
        '  has_items : cart.add_item',
        '  has_items : cart.checkout',
        '  has_items : cart.clear',
        '  has_items : cart.view',
        '  payment : cart.cancel',
        '  payment : cart.pay',
        '  payment : cart.view',
        '  confirmed : cart.add_item',
        '  confirmed : cart.view',
        '  [*] --> empty',
        '  empty --> has_items : cart.add_item (ADD_ITEM)',
        '  has_items --> payment : cart.checkout (CHECKOUT)',
        '  has_items --> empty : cart.clear (CLEAR)',
        '  payment --> confirmed : cart.pay (PAY)',
        '  payment --> has_items : cart.cancel (CANCEL)',
        '  confirmed --> has_items : cart.add_item (ADD_ITEM)',
        '  note right of empty',
        `    Visible in every state: ${ungated.join(', ')}`,
        '  end note',
      ].join('\n'),
    );
  });

  it('--all-tools lists the always-visible tools in every state', async () => {
    const { stdout } = await cli('diagram', example, '--all-tools');
    expect(stdout).toContain(
      '  payment : cart.cancel\n  payment : cart.pay\n  payment : cart.view\n  payment : countries.list\n',
    );
    expect(stdout).not.toContain('note right of');
  });

  it('prints Graphviz DOT with --format dot', async () => {
    const { stdout } = await cli('diagram', example, '--format', 'dot');
    expect(stdout).toContain('"empty" -> "has_items" [label="cart.add_item (ADD_ITEM)"];');
    expect(stdout).toContain('"payment" -> "has_items" [label="cart.cancel (CANCEL)"];');
    expect(stdout).toContain('"confirmed" -> "has_items" [label="cart.add_item (ADD_ITEM)"];');
    // After paying, the checkout goes on (a legacy session can buy again): no final state.
    expect(stdout).not.toContain('peripheries=2');
  });

  it('--out writes the Mermaid text and an SVG rendered in-process', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fusion-diagram-'));
    try {
      const { code, stdout } = await cli('diagram', example, '--out', dir);
      expect(code).toBe(0);
      expect(stdout).toMatch(/wrote .*checkout\.mmd\nwrote .*checkout\.svg\n/);
      expect((await readdir(dir)).sort()).toEqual(['checkout.mmd', 'checkout.svg']);
      expect(await readFile(join(dir, 'checkout.mmd'), 'utf8')).toContain('stateDiagram-v2');
      const svg = await readFile(join(dir, 'checkout.svg'), 'utf8');
      expect(parseXmlRoot(svg)).toBe('svg');
      for (const text of ['has_items', 'cart.checkout', 'cart.add_item (ADD_ITEM)', 'cart.cancel (CANCEL)'])
        expect(svg).toContain(`>${text}</text>`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('--out <file> writes that one file: SVG, Mermaid or DOT by its extension', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fusion-diagram-'));
    try {
      for (const name of ['flow.svg', 'flow.mmd', 'flow.dot']) {
        const { code, stdout, stderr } = await cli('diagram', example, '--out', join(dir, 'nested', name));
        expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
        expect(stdout).toBe(`wrote ${join(dir, 'nested', name)}\n`);
      }
      expect((await readdir(join(dir, 'nested'))).sort()).toEqual(['flow.dot', 'flow.mmd', 'flow.svg']);
      expect(parseXmlRoot(await readFile(join(dir, 'nested', 'flow.svg'), 'utf8'))).toBe('svg');
      expect(await readFile(join(dir, 'nested', 'flow.mmd'), 'utf8')).toMatch(
        /^---\ntitle: checkout\n---\nstateDiagram-v2\n/,
      );
      expect(await readFile(join(dir, 'nested', 'flow.dot'), 'utf8')).toContain(
        '"empty" -> "has_items" [label="cart.add_item (ADD_ITEM)"];',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a module without a workflow gate', async () => {
    const { code, stderr } = await cli('diagram', fixture('broken-registry.ts'), '--fsm', 'registry');
    expect(code).toBe(2);
    expect(stderr).toBe(
      'error: Export "registry" of "test/cli/fixtures/broken-registry.ts" is not a StateMachineGate (f.fsm(...)); check the name given with --fsm.\n',
    );
  });
});
