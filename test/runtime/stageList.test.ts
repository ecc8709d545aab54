import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { initFusion, type ServeOptions } from '../../src/index.js';
import { WireError, JsonRpcCode } from '../../src/errors/WireError.js';
import { errorResult } from '../../src/protocol/normalizeResult.js';
import { FusionRuntime } from '../../src/runtime/FusionRuntime.js';
import { defineStage } from '../../src/runtime/stages/StageDefinition.js';
import { stageList, type StageName } from '../../src/runtime/stages/stageList.js';
import { buildServer } from '../../src/server/buildServer.js';
import { ToolSwitch } from '../../src/surface/ToolSwitch.js';
import { texts } from '../_helpers/clients.js';

const f = initFusion();
const registry = f.registry().registerAll(
  f.query('notes.list').handle(() => 'notes'),
  f
    .mutation('notes.delete')
    .withString('id')
    .requireScopes('notes:write')
    .handle(({ id }) => `deleted ${id}`),
);
const prompts = [
  f
    .prompt('review')
    .argument('topic')
    .handle(({ topic }) => `Review ${String(topic)}`),
];
const resources = [f.resource('app://readme').handle(() => 'read me')];

/** A real SDK client on a runtime built from `stages` (the test's own list), legacy era, in memory. */
async function connect(options: ServeOptions<void>, stages: Parameters<typeof FusionRuntime.build>[2]) {
  const parts = { tools: registry.tools, prompts, resources, resourceTemplates: [], toolSwitch: new ToolSwitch() };
  const runtime = FusionRuntime.build(parts, options, stages);
  const { server } = buildServer(runtime, options, 'legacy');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'stages', version: '1.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return Object.assign(client, {
    runtime,
    [Symbol.asyncDispose]: async () => (await client.close(), runtime.dispose()),
  });
}

describe('the stage list', () => {
  it('is the order of every path, and each stage declares the paths it joins', () => {
    const declared = stageList.map(
      ({ name, tools: t, content }) =>
        `${name}:${t === undefined ? '' : 'tools'}${content === undefined ? '' : '+content'}`,
    );
    expect(declared).toEqual([
      'switch:tools',
      'scopes:tools+content',
      'concurrency:tools',
      'track:tools',
      'workflow:tools',
      'validate:tools',
      'rateLimit:tools+content',
      'stateSync:tools',
    ]);
    const names: StageName[] = stageList.map((s) => s.name);
    expect(new Set(names).size, 'names are unique').toBe(names.length);
  });

  it('runs a stage defined here on tools/call, prompts/get and resources/read, at its place in the list', async () => {
    const seen: string[] = [];
    const audit = defineStage({
      name: 'audit',
      tools: {
        appliesTo: (tool) => tool.name.startsWith('notes.'),
        build: (tool) => async (call, next) => {
          seen.push(`tools/call ${tool.name}`);
          return call.args.blocked === true ? errorResult('blocked by audit') : next(call);
        },
      },
      content: {
        appliesTo: ({ method }) => method !== 'completion/complete',
        build:
          ({ method }) =>
          async (call, next) => {
            seen.push(`${method} ${call.what}`);
            if (call.rctx.extra.meta?.blocked === true)
              throw new WireError(JsonRpcCode.InvalidParams, `${call.label} blocked by audit`);
            return next(call);
          },
      },
    });
    const scopesAt = stageList.findIndex((s) => s.name === 'scopes');
    const stages = [...stageList.slice(0, scopesAt + 1), audit, ...stageList.slice(scopesAt + 1)];
    await using client = await connect({}, stages);

    expect(client.runtime.tools.stagesOf('notes.delete')).toEqual(['switch', 'scopes', 'audit', 'validate']);
    expect(texts(await client.callTool({ name: 'notes.list', arguments: {} }))).toEqual(['notes']);
    expect(await client.callTool({ name: 'notes.list', arguments: { blocked: true } })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'blocked by audit' }],
    });
    expect((await client.getPrompt({ name: 'review', arguments: { topic: 'stages' } })).messages).toHaveLength(1);
    expect((await client.readResource({ uri: 'app://readme' })).contents[0]).toMatchObject({ text: 'read me' });
    await expect(
      client.getPrompt({ name: 'review', arguments: { topic: 'x' }, _meta: { blocked: true } }),
    ).rejects.toThrow('Prompt "review" blocked by audit');
    expect(seen).toEqual([
      'tools/call notes.list',
      'tools/call notes.list',
      'prompts/get prompt "review"',
      'resources/read resource "app://readme"',
      'prompts/get prompt "review"',
    ]);
  });

  it('leaves a stage out of the paths of items it does not apply to', async () => {
    await using client = await connect({}, stageList);
    expect(client.runtime.tools.stagesOf('notes.list'), 'no scope stage without required scopes').toEqual([
      'switch',
      'validate',
    ]);
    expect(client.runtime.tools.stagesOf('notes.delete')).toEqual(['switch', 'scopes', 'validate']);
  });
});
