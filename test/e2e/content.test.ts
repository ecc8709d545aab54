import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, ResourceNotFoundError, Server } from '@modelcontextprotocol/server';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as V1InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FluentToolBuilder } from '../../src/builder/FluentToolBuilder.js';
import { PromptBuilder } from '../../src/prompts/PromptBuilder.js';
import { ToolRegistry } from '../../src/registry/ToolRegistry.js';
import type { AttachOptions } from '../../src/registry/types.js';
import { ResourceBuilder } from '../../src/resources/ResourceBuilder.js';
import { ResourceTemplateBuilder } from '../../src/resources/ResourceTemplateBuilder.js';
import { createFusionApp } from '../../src/server/app/createFusionApp.js';
import { createTestClient } from '../../src/testing/createTestClient.js';
import { v2FetchClient } from '../_helpers/clients.js';

interface Ctx {
  items: Record<string, string>;
}
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

function registry(): ToolRegistry<Ctx> {
  return new ToolRegistry<Ctx>().registerAll(
    new FluentToolBuilder<Ctx>('query', 'items.list')
      .describe('List items')
      .handle((_i, ctx) => Object.keys(ctx.items)),
    new PromptBuilder<Ctx>('test_simple_prompt')
      .describe('A simple prompt')
      .handle(() => 'This is a simple prompt for testing.'),
    new PromptBuilder<Ctx>('test_prompt_with_arguments')
      .describe('A prompt with arguments')
      .argument('arg1', { description: 'First test argument', required: true })
      .argument('arg2', { description: 'Second test argument', required: true })
      .handle(({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`),
    new PromptBuilder<Ctx>('test_prompt_with_embedded_resource')
      .describe('A prompt with an embedded resource')
      .args(z.object({ resourceUri: z.string().describe('URI of the resource to embed') }))
      .handle(({ resourceUri }) => [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        'Please process the embedded resource above.',
      ]),
    new PromptBuilder<Ctx>('test_prompt_with_image')
      .describe('A prompt with an image')
      .handle(() => [
        { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
        'Please analyze the image above.',
      ]),
    new ResourceBuilder<Ctx>('test://static-text')
      .name('static-text')
      .describe('A static text resource')
      .mimeType('text/plain')
      .handle(() => 'This is the content of the static text resource.'),
    new ResourceBuilder<Ctx>('test://static-binary')
      .name('static-binary')
      .describe('A PNG')
      .mimeType('image/png')
      .handle(() => Buffer.from(PNG, 'base64')),
    new ResourceTemplateBuilder<Ctx, 'test://template/{id}/data'>('test://template/{id}/data')
      .name('template-data')
      .describe('Data by id')
      .mimeType('application/json')
      .list((ctx) => Object.keys(ctx.items).map((id) => ({ uri: `test://template/${id}/data`, name: `item ${id}` })))
      .handle((_uri, { id }, ctx) =>
        id in ctx.items
          ? JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}`, label: ctx.items[id] })
          : undefined,
      ),
  );
}

const options: AttachOptions<Ctx> = { contextFactory: () => ({ items: { '123': 'first', '456': 'second' } }) };

async function connectV2(reg: ToolRegistry<Ctx>): Promise<Client & AsyncDisposable> {
  const server = new Server({ name: 'content', version: '1.0.0' }, { capabilities: {} });
  reg.attachToServer(server, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

async function failure(
  promise: Promise<unknown>,
): Promise<{ code: unknown; message: string; data?: unknown; error: unknown }> {
  const error = await promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (e: unknown) => e,
  );
  const { code, message, data } = error as { code: unknown; message: string; data?: unknown };
  return { code, message, data, error };
}

describe('prompts and resources through the SDK Client (v2, in memory)', () => {
  it('declares the prompts and resources capabilities next to tools', async () => {
    await using client = await connectV2(registry());
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true },
    });
    expect(client.getServerCapabilities()?.resources).toEqual({ listChanged: true });
  });

  it('lists prompts with their arguments and fetches them with arguments', async () => {
    await using client = await connectV2(registry());
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      'test_simple_prompt',
      'test_prompt_with_arguments',
      'test_prompt_with_embedded_resource',
      'test_prompt_with_image',
    ]);
    expect(prompts[1]).toEqual({
      name: 'test_prompt_with_arguments',
      description: 'A prompt with arguments',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
    });
    expect(await client.getPrompt({ name: 'test_simple_prompt' })).toEqual({
      description: 'A simple prompt',
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    });
    const withArgs = await client.getPrompt({
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'testValue1', arg2: 'testValue2' },
    });
    expect(withArgs.messages[0]!.content).toEqual({
      type: 'text',
      text: "Prompt with arguments: arg1='testValue1', arg2='testValue2'",
    });
    const embedded = await client.getPrompt({
      name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://example-resource' },
    });
    expect(embedded.messages.map((m) => m.content.type)).toEqual(['resource', 'text']);
    const image = await client.getPrompt({ name: 'test_prompt_with_image' });
    expect(image.messages[0]!.content).toEqual({ type: 'image', data: PNG, mimeType: 'image/png' });
  });

  it('refuses a missing argument and an unknown prompt with -32602 naming the culprit', async () => {
    await using client = await connectV2(registry());
    const missing = await failure(client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'x' } }));
    expect(missing.code).toBe(-32602);
    expect(missing.message).toContain(
      'Prompt "test_prompt_with_arguments" is missing the required argument "arg2"; call prompts/get again with it.',
    );
    const unknown = await failure(client.getPrompt({ name: 'nope' }));
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toContain(
      'Unknown prompt "nope". Available prompts: test_simple_prompt, test_prompt_with_arguments, test_prompt_with_embedded_resource, test_prompt_with_image. Call prompts/list to see them.',
    );
  });

  it('lists fixed resources and what templates enumerate, and reads text and binary', async () => {
    await using client = await connectV2(registry());
    expect((await client.listResources()).resources).toEqual([
      { uri: 'test://static-text', name: 'static-text', description: 'A static text resource', mimeType: 'text/plain' },
      { uri: 'test://static-binary', name: 'static-binary', description: 'A PNG', mimeType: 'image/png' },
      { uri: 'test://template/123/data', name: 'item 123', mimeType: 'application/json' },
      { uri: 'test://template/456/data', name: 'item 456', mimeType: 'application/json' },
    ]);
    expect(await client.readResource({ uri: 'test://static-text' })).toEqual({
      contents: [
        { uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
      ],
    });
    expect((await client.readResource({ uri: 'test://static-binary' })).contents).toEqual([
      { uri: 'test://static-binary', mimeType: 'image/png', blob: PNG },
    ]);
  });

  it('lists templates and reads through them with the URI variables', async () => {
    await using client = await connectV2(registry());
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      {
        uriTemplate: 'test://template/{id}/data',
        name: 'template-data',
        description: 'Data by id',
        mimeType: 'application/json',
      },
    ]);
    const { contents } = await client.readResource({ uri: 'test://template/123/data' });
    expect(contents).toEqual([
      {
        uri: 'test://template/123/data',
        mimeType: 'application/json',
        text: '{"id":"123","templateTest":true,"data":"Data for ID: 123","label":"first"}',
      },
    ]);
  });

  it('answers "Resource not found" with data { uri } for an unknown URI (the v2 SDK sends it as -32602, SEP-2164)', async () => {
    await using client = await connectV2(registry());
    for (const uri of ['test://nonexistent-resource-for-conformance-testing', 'test://template/999/data']) {
      const notFound = await failure(client.readResource({ uri }));
      expect(notFound.error).toBeInstanceOf(ResourceNotFoundError);
      expect(notFound).toMatchObject({ code: -32602, data: { uri } });
      expect(notFound.message).toContain(
        `Resource not found: "${uri}". Known resources: test://static-text, test://static-binary; templates: test://template/{id}/data.`,
      );
    }
  });

  it('declares only what exists: no prompts capability without prompts, none of either with tools only', async () => {
    const resourcesOnly = new ToolRegistry<Ctx>().register(new ResourceBuilder<Ctx>('app://only').handle(() => 'x'));
    await using a = await connectV2(resourcesOnly);
    expect(a.getServerCapabilities()).toEqual({ tools: { listChanged: true }, resources: { listChanged: true } });
    const toolsOnly = new ToolRegistry<Ctx>().register(
      new FluentToolBuilder<Ctx>('query', 'ping').handle(() => 'pong'),
    );
    await using b = await connectV2(toolsOnly);
    expect(b.getServerCapabilities()).toEqual({ tools: { listChanged: true } });
    const raw = await failure(b.request({ method: 'resources/read', params: { uri: 'app://only' } } as never));
    expect(raw.code).toBe(-32601);
  });
});

describe('prompts and resources on the other serving paths', () => {
  it('serves them from the per-session servers of createTestClient (buildServer)', async () => {
    await using t = await createTestClient(registry(), options);
    expect(t.client.getServerCapabilities()).toMatchObject({
      prompts: { listChanged: true },
      resources: { listChanged: true },
    });
    expect((await t.client.getPrompt({ name: 'test_simple_prompt' })).messages).toHaveLength(1);
    expect(await t.listToolNames()).toEqual(['items.list']);
  });

  it('serves them to a modern (2026-07-28) client through the per-request servers of the HTTP app', async () => {
    const app = createFusionApp(registry(), options);
    try {
      await using client = await v2FetchClient(app, 'auto');
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getServerCapabilities()).toMatchObject({
        prompts: { listChanged: true },
        resources: { listChanged: true },
      });
      expect((await client.readResource({ uri: 'test://template/456/data' })).contents[0]).toMatchObject({
        text: expect.stringContaining('Data for ID: 456'),
      });
      expect(
        (await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } })).messages,
      ).toHaveLength(1);
      expect((await client.listResourceTemplates()).resourceTemplates).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('attaches to a v1 McpServer, where "Resource not found" keeps its -32002 code', async () => {
    const server = new V1McpServer({ name: 'legacy', version: '1.0.0' });
    const attachment = registry().attachToServer(server, options);
    expect(attachment.sdk).toBe('v1');
    const [clientSide, serverSide] = V1InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new V1Client({ name: 'test-v1', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      expect(client.getServerCapabilities()).toMatchObject({
        prompts: { listChanged: true },
        resources: { listChanged: true },
      });
      expect((await client.listPrompts()).prompts).toHaveLength(4);
      expect(
        (await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'x', arg2: 'y' } }))
          .messages[0]!.content,
      ).toEqual({
        type: 'text',
        text: "Prompt with arguments: arg1='x', arg2='y'",
      });
      expect((await client.readResource({ uri: 'test://template/123/data' })).contents[0]).toMatchObject({
        uri: 'test://template/123/data',
      });
      expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
        'test://template/{id}/data',
      ]);
      const missing = await failure(client.getPrompt({ name: 'test_prompt_with_arguments', arguments: {} }));
      expect(missing.code).toBe(-32602);
      const notFound = await failure(client.readResource({ uri: 'test://nope' }));
      expect(notFound).toMatchObject({ code: -32002, data: { uri: 'test://nope' } });
      await attachment.notifyResourceListChanged();
    } finally {
      await client.close();
    }
  });
});
