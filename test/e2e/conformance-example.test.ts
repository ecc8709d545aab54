import { describe, expect, it } from 'vitest';
import { conformanceOptions, registry } from '../../examples/conformance/server.js';
import { createFusionApp } from '../../src/server/app/createFusionApp.js';
import { v2FetchClient } from '../_helpers/clients.js';

// The fixtures the official conformance suite expects (`npm run conformance` runs the suite itself against
// this example over HTTP); these checks keep the example honest inside `npm test`.
describe('examples/conformance', () => {
  it('exposes the suite’s fixtures in both eras', async () => {
    const app = createFusionApp(registry, conformanceOptions);
    for (const mode of ['legacy', 'auto'] as const) {
      await using client = await v2FetchClient(app, mode);
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(
        expect.arrayContaining([
          'test_simple_text',
          'test_tool_with_progress',
          'json_schema_2020_12_tool',
          'test_input_required_result_multi_round',
        ]),
      );
      const schema = (await client.listTools()).tools.find((t) => t.name === 'json_schema_2020_12_tool')!.inputSchema;
      expect(schema).toMatchObject({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        additionalProperties: false,
        $defs: { address: expect.any(Object) },
      });
      expect((await client.listPrompts()).prompts.every((p) => typeof p.description === 'string')).toBe(true);
      expect(
        (
          await client.complete({
            ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
            argument: { name: 'arg1', value: 'par' },
          })
        ).completion.values,
      ).toEqual(['paris', 'park', 'party']);
      expect(await client.readResource({ uri: 'test://template/123/data' })).toMatchObject({
        contents: [{ text: JSON.stringify({ id: '123', templateTest: true, data: 'Data for ID: 123' }) }],
      });
    }
    await using legacy = await v2FetchClient(app, 'legacy');
    expect(legacy.getServerCapabilities()).toMatchObject({
      logging: {},
      completions: {},
      resources: { subscribe: true },
    });
    expect(await legacy.setLoggingLevel('info')).toEqual({});
    expect(await legacy.subscribeResource({ uri: 'test://watched-resource' })).toEqual({});
    await app.close();
  });
});
