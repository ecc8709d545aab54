import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion } from '../../src/index.js';
import { v2FetchClient } from '../_helpers/clients.js';
import { heard } from '../_helpers/heard.js';

/** An approval workflow, a tool no skill names, and a resource both eras watch as a barrier. */
function approvals() {
  const f = initFusion();
  const fsm = f.fsm({
    id: 'approval',
    initial: 'draft',
    states: {
      draft: { on: { SUBMIT: 'review' } },
      review: { on: { APPROVE: 'approved', REJECT: 'draft' } },
      approved: { type: 'final' },
    },
  });
  const registry = f.registry().registerAll(
    f
      .action('doc.submit')
      .bindState('draft', 'SUBMIT')
      .handle(() => 'submitted'),
    f
      .action('doc.approve')
      .bindState('review', 'APPROVE')
      .handle(() => 'approved'),
    f
      .action('doc.reject')
      .bindState('review', 'REJECT')
      .handle(() => 'rejected'),
    f.query('ping').handle(() => 'pong'),
    f.resource('test://barrier').handle(() => 'barrier'),
  );
  return { registry, fsm };
}

const text = async (skills: SkillsClient): Promise<string> => {
  const [entry] = (await skills.list()).skills;
  const file = await skills.read(entry!);
  expect(file.verified).toBe(true);
  return file.text!;
};

describe('a run-time change of the registry changes the skill on a live server (HTTP, both eras)', () => {
  it('legacy sessions and modern listen streams hear resources/list_changed only when a skill changed', async () => {
    const { registry, fsm } = approvals();
    const app = createFusionApp(registry, { fsm, resourceSubscriptions: true });
    await using legacy = await v2FetchClient(app);
    await using modern = await v2FetchClient(app, 'auto');
    const changed = { legacy: heard<string>(), modern: heard<string>() };
    const barrier = { legacy: heard<string>(), modern: heard<string>() };
    for (const [era, client] of [
      ['legacy', legacy],
      ['modern', modern],
    ] as const) {
      client.setNotificationHandler('notifications/resources/list_changed', () => changed[era].push('changed'));
      client.setNotificationHandler('notifications/resources/updated', (n) => barrier[era].push(n.params.uri));
    }
    const sub = await modern.listen({ resourcesListChanged: true, resourceSubscriptions: ['test://barrier'] });
    await legacy.subscribeResource({ uri: 'test://barrier' });
    await legacy.streamOpen;
    const skills = { legacy: new SkillsClient(legacy), modern: new SkillsClient(modern) };
    const before = await text(skills.legacy);
    expect(await text(skills.modern)).toBe(before);

    // No skill names `ping`: switching it changes the tool list only.
    registry.disable('ping');
    registry.enable('ping');
    registry.disable('doc.reject');
    await changed.legacy.reached(1);
    await changed.modern.reached(1);
    // The barrier's update, sent after the switches, arrives after every notification they sent.
    await app.notifyResourceUpdated('test://barrier');
    await barrier.legacy.reached(1);
    await barrier.modern.reached(1);
    expect([changed.legacy.items.length, changed.modern.items.length]).toEqual([1, 1]);

    for (const era of ['legacy', 'modern'] as const) {
      const after = await text(skills[era]);
      expect(after, era).not.toContain('doc.reject');
      expect(after, era).toContain('- `review` → `draft` on `REJECT`: no tool sends it');
    }
    registry.enable('doc.reject');
    await changed.legacy.reached(2);
    await changed.modern.reached(2);
    expect(await text(skills.modern)).toBe(before);
    expect(await text(skills.legacy)).toBe(before);
    await sub.close();
    await app.close();
  });

  it('a workflow whose every tool is disabled publishes no skill until one comes back', async () => {
    const { registry, fsm } = approvals();
    await using client = await v2FetchClient(createFusionApp(registry, { fsm }), 'auto');
    const skills = new SkillsClient(client);
    for (const tool of ['doc.submit', 'doc.approve', 'doc.reject']) registry.disable(tool);
    expect((await skills.list()).skills).toEqual([]);
    await expect(skills.get('skill://approval-workflow/SKILL.md')).rejects.toMatchObject({ code: -32602 });
    registry.enable('doc.approve');
    const only = await text(skills);
    expect(only).toContain('- `review`: `doc.approve`');
    expect(only).not.toContain('doc.submit');
  });
});
