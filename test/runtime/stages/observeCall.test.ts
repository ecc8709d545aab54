import { describe, expect, it } from 'vitest';
import type { DebugEvent } from '../../../src/index.js';
import { createTestClient } from '../../../src/testing/index.js';
import { gate, registry } from '../../console/fixture.js';

type Result = Extract<DebugEvent, { type: 'result' }>;

describe('the result event: each call as the agent read it, for observers', () => {
  it("carries the text, the caller, the arguments, the stage timings, and a thrown handler's stack", async () => {
    const events: DebugEvent[] = [];
    await using t = await createTestClient(registry, {
      fsm: gate,
      debug: (e) => events.push(e),
      authInfo: { token: 't', clientId: 'app', scopes: ['notes:read'], extra: { sub: 'alice' } },
    });
    const results = (): Result[] => events.filter((e): e is Result => e.type === 'result');

    const added = await t.callTool('cart.add', {});
    expect(results()).toHaveLength(1);
    const ok = results()[0]!;
    expect(ok).toMatchObject({
      tool: 'cart.add',
      ok: true,
      refused: false,
      principal: 'u:["","alice"]',
      scopes: ['notes:read'],
      args: {},
    });
    expect(ok.text).toBe(added.content.map((b) => (b as { text: string }).text).join('\n'));
    expect(ok.sessionId).toEqual(expect.any(String));
    expect(ok.stages.map((s) => s.stage)).toEqual(['switch', 'track', 'workflow', 'validate', 'handler', 'after']);
    expect(ok.stages.every((s) => s.ms >= 0)).toBe(true);
    expect(ok.durationMs).toBeGreaterThanOrEqual(ok.stages.reduce((sum, s) => sum + s.ms, 0) - 0.01);

    // Refused by the workflow gate: the handler never ran; the text is the refusal the agent read.
    const refused = await t.callTool('cart.add');
    expect(results()[1]).toMatchObject({
      tool: 'cart.add',
      ok: false,
      refused: true,
      text: (refused.content[0] as { text: string }).text,
    });
    expect(results()[1]!.stages.map((s) => s.stage)).not.toContain('handler');

    // An unknown tool is a protocol error: still reported, with its message.
    await expect(t.callTool('nope')).rejects.toThrow();
    expect(results()[2]).toMatchObject({ tool: 'nope', ok: false, refused: true, stages: [] });
    expect(results()[2]!.text).toMatch(/^Unknown tool "nope"/);

    await t.callTool('boom');
    expect(results()[3]).toMatchObject({ tool: 'boom', ok: false, refused: false, text: 'the database is down' });
    expect(results()[3]!.stack).toMatch(/^Error: the database is down\n\s+at /);
  });
});
