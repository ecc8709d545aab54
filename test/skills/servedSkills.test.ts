import { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion, type ToolRegistry } from '../../src/index.js';
import { v2FetchClient } from '../_helpers/clients.js';

const f = initFusion();
const machine = {
  id: 'approval',
  initial: 'draft',
  states: {
    draft: { on: { SUBMIT: 'review' } },
    review: { on: { APPROVE: 'approved', REJECT: 'draft' } },
    approved: { type: 'final' as const },
  },
};

function approvals() {
  const fsm = f.fsm(machine);
  const registry = f.registry().registerAll(
    f
      .action('doc.submit')
      .bindState('draft', 'SUBMIT')
      .handle(() => 'submitted'),
    f
      .action('doc.approve')
      .bindState('review', 'APPROVE')
      .handle(() => 'approved'),
  );
  return { registry, fsm };
}

async function skillText(registry: ToolRegistry<void>, options: object, mode: 'legacy' | 'auto' = 'auto') {
  await using client = await v2FetchClient(createFusionApp(registry, options), mode);
  const skills = new SkillsClient(client);
  const [entry] = (await skills.list()).skills;
  return (await skills.read(entry!)).text!;
}

describe('skills served from the registry', () => {
  it('regenerates the workflow’s skill when the registry changes', async () => {
    const { registry, fsm } = approvals();
    const options = { fsm };
    const before = await skillText(registry, options);
    expect(before).toContain('- `review` → `draft` on `REJECT`: no tool sends it');
    expect(before).toContain('2. In `review`, call `doc.approve`: now `approved`.');
    registry.register(
      f
        .action('doc.reject')
        .bindState('review', 'REJECT')
        .handle(() => 'rejected'),
    );
    const after = await skillText(registry, options);
    expect(after).not.toEqual(before);
    expect(after).toContain('- `review` → `draft` on `REJECT`: call `doc.reject`');
    expect(after).toContain('- `review`: `doc.approve`, `doc.reject`');
  });

  it('names an action of a grouped tool with the call that selects it', async () => {
    // `toolExposition: 'grouped'` exposes doc.submit and doc.approve as one tool `doc`, selected by an action field.
    const { registry, fsm } = approvals();
    const text = await skillText(registry, { fsm, toolExposition: 'grouped' });
    expect(text).toContain('- `draft` (initial): `doc` with `action: "submit"`');
    expect(text).toContain('1. In `draft`, call `doc` with `action: "submit"`: now `review`.');
  });

  it('is served on a user’s McpServer through attachToServer, and declared only when there is a skill', async () => {
    const { registry, fsm } = approvals();
    const mcp = new McpServer({ name: 'user', version: '1.0.0' });
    registry.attachToServer(mcp, { fsm });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(a);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(b);
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    const [entry] = (await skills.list()).skills;
    expect((await skills.read(entry!)).verified).toBe(true);
    await client.close();

    const plain = f.registry().register(f.query('ping').handle(() => 'pong'));
    await using own = await v2FetchClient(createFusionApp(plain), 'auto');
    expect(own.getServerCapabilities()?.extensions).toBeUndefined();
    expect(new SkillsClient(own).supported).toBe(false);
    const user = new McpServer({ name: 'user', version: '1.0.0' });
    plain.attachToServer(user);
    const [c, d] = InMemoryTransport.createLinkedPair();
    await user.connect(c);
    const other = new Client({ name: 'c', version: '1.0.0' });
    await other.connect(d);
    expect(other.getServerCapabilities()?.extensions).toBeUndefined();
    await other.close();
  });
});
