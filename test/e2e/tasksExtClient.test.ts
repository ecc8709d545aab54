import { describe, expect, it } from 'vitest';
import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { initFusion, JsonRpcCode, WireError } from '../../src/index.js';
import { httpServer } from '../_helpers/clients.js';
import { extTaskSession } from '../_helpers/extTasks.js';

const f = initFusion();

/** A registry whose task tools finish when the test says so (`release`), report progress and ask for input. */
function fixture() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let fail!: () => void;
  const broken = new Promise<void>((resolve) => (fail = resolve));
  const registry = f.registry().registerAll(
    f
      .action('reports.generate')
      .withString('title')
      .task({ pollIntervalMs: 20 })
      .handle(async ({ title }, _ctx, extra) => {
        await extra.progress(1, 2, 'collecting');
        // A cancel during the await above has fired already: its listener below would never hear it.
        extra.signal.throwIfAborted();
        await Promise.race([
          released,
          new Promise((_, reject) => extra.signal.addEventListener('abort', () => reject(extra.signal.reason))),
        ]);
        return { content: [{ type: 'text', text: `Report "${title}" ready` }] };
      }),
    f
      .action('reports.confirm')
      .task({ mode: 'required', pollIntervalMs: 20 })
      .handle(async (_input, _ctx, extra) => {
        const answer = await extra.elicit({
          mode: 'form',
          message: 'Publish?',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        });
        return `published=${String((answer.content as { ok?: boolean } | undefined)?.ok)}`;
      }),
    f
      .action('reports.broken')
      .task({ pollIntervalMs: 20 })
      .handle(async () => {
        // Fails when the test says so: after its task exists, not within the call (which would answer directly).
        await broken;
        throw new WireError(JsonRpcCode.InternalError, 'the report engine is down');
      }),
  );
  return { registry, release, fail };
}

describe.each(['legacy', 'modern'] as const)(
  'the official Tasks client (@modelcontextprotocol/ext-tasks), %s era over HTTP',
  (era) => {
    it('calls a task tool through a task and settles with its result', async () => {
      const { registry, release } = fixture();
      await using srv = await httpServer(registry);
      await using ext = await extTaskSession(srv.url, era);
      const execution = await ext.session.callTool(
        'reports.generate',
        { title: 'Q3' },
        { task: { preference: 'require' } },
      );
      expect(execution.kind).toBe('task');
      // The task exists and is working (the handler waits for this): finish it, and settle.
      release();
      const { outcome } = await execution.settle();
      expect(resultFromTaskOutcome(outcome)).toMatchObject({ content: [{ type: 'text', text: 'Report "Q3" ready' }] });
    });

    it('cancels a running task', async () => {
      const { registry } = fixture();
      await using srv = await httpServer(registry);
      await using ext = await extTaskSession(srv.url, era);
      const execution = await ext.session.callTool(
        'reports.generate',
        { title: 'never' },
        { task: { preference: 'require' } },
      );
      await execution.cancel();
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('cancelled');
    });

    it('reports a JSON-RPC error of the handler as a failed task', async () => {
      const { registry, fail } = fixture();
      await using srv = await httpServer(registry);
      await using ext = await extTaskSession(srv.url, era);
      const execution = await ext.session.callTool('reports.broken', {}, { task: { preference: 'require' } });
      expect(execution.kind).toBe('task');
      fail();
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('failed');
      expect(() => resultFromTaskOutcome(outcome)).toThrow(/the report engine is down/);
    });
  },
);
