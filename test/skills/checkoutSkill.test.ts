import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { createFusionApp } from '../../src/index.js';
import { createTestClient } from '../../src/testing/index.js';
import { v2FetchClient } from '../_helpers/clients.js';

const options = workspaceOptions();
const machine = options.fsm.config;

/** The checkout's skill as a host gets it: listed, then read and verified against its digest and frontmatter. */
async function checkoutSkill(mode: 'legacy' | 'auto'): Promise<string> {
  await using client = await v2FetchClient(createFusionApp(registry, options), mode);
  const skills = new SkillsClient(client);
  expect(skills.supported).toBe(true);
  const { skills: listed, invalid } = await skills.list();
  expect(invalid).toEqual([]);
  const entry = listed.find((s) => s.frontmatter.name === 'checkout-workflow');
  expect(entry?.uri).toBe('skill://checkout-workflow/SKILL.md');
  const file = await skills.read(entry!);
  expect(file.verified).toBe(true);
  return file.text!;
}

// Building the runtime binds the registry's `.bindState()` tools to the gate ('*' expanded to every state).
const gate = registry.runtime(options).workflow!.gate;
const bound = [...gate.bindings.keys()];

/** The tools bound to `state` and, for `event`, those among them that send it: the gate's own bindings. */
const boundIn = (state: string, event?: string): string[] =>
  bound.filter(
    (t) =>
      gate.bindings.get(t)!.states.includes(state) && (event === undefined || gate.bindings.get(t)!.event === event),
  );

describe('the checkout workflow’s skill, through the SDK’s skills client', () => {
  for (const mode of ['legacy', 'auto'] as const)
    it(`${mode}: lists every state with exactly its tools and every transition with the calls that make it`, async () => {
      const lines = (await checkoutSkill(mode)).split('\n');
      expect(bound.length).toBeGreaterThan(0);
      let transitions = 0;
      for (const [state, definition] of Object.entries(machine.states)) {
        const line = lines.find((l) => l.startsWith(`- \`${state}\``) && !l.includes('→'));
        expect(line, state).toBeDefined();
        for (const tool of bound)
          expect(line!.includes(`\`${tool}\``), `${state}: ${tool}`).toBe(boundIn(state).includes(tool));
        for (const [event, target] of Object.entries(definition.on ?? {})) {
          transitions++;
          const edge = lines.find((l) => l.startsWith(`- \`${state}\` → \`${String(target)}\` on \`${event}\`:`));
          expect(edge, `${state} -${event}-> ${String(target)}`).toBeDefined();
          const senders = boundIn(state, event);
          expect(senders.length).toBeGreaterThan(0);
          for (const tool of senders) expect(edge).toContain(`\`${tool}\``);
        }
      }
      expect(lines.filter((l) => l.includes(' → '))).toHaveLength(transitions);
      expect(lines).toContain(`# Workflow "${machine.id}"`);
    });

  it('gives a worked path from the initial state that the server really walks, call by call', async () => {
    const text = await checkoutSkill('legacy');
    const steps = [...text.matchAll(/^\d+\. In `([^`]+)`, call `([^`]+)`: now `([^`]+)`\.$/gm)];
    expect(steps.length).toBeGreaterThan(0);
    expect(steps[0]![1]).toBe(machine.initial);
    const args: Record<string, Record<string, unknown>> = {
      'cart.add_item': { product_id: 'p1' },
      'cart.pay': { payment_method: 'card' },
    };
    await using t = await createTestClient(registry, workspaceOptions());
    for (const [, from, tool, to] of steps) {
      expect(await t.state()).toBe(from);
      const result = await t.callTool(tool!, args[tool!] ?? {});
      expect(result.isError ?? false, `${tool}: ${JSON.stringify(result.content)}`).toBe(false);
      expect(await t.state()).toBe(to);
    }
    // The machine has no final state: the path ends in the state farthest from the initial one.
    expect(steps.at(-1)![3]).toBe('confirmed');
  });
});
