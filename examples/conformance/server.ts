import { acceptedContent, inputRequired, type InputRequest } from '@modelcontextprotocol/server';
import { initFusion, type StartServerOptions, type HandlerExtra } from 'mcp-fusion';
import { taskTools } from './taskTools.js';

export const f = initFusion();

/** What the diagnostic tools need of the running server (set by main.ts once it listens). */
export const hooks = { promptsChanged: (): void => {} };

/** A 1×1 red PNG. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A 16-bit mono WAV with two silent samples. */
export const WAV = 'UklGRigAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQQAAAAAAAAA';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const CONFIRM = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } };
const OK = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };
const askName = (message: string): InputRequest =>
  inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
const askColor = (): InputRequest =>
  inputRequired.elicit({
    message: 'Step 2: What is your favorite color?',
    requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
  });
const askModel = (text: string, maxTokens: number): InputRequest =>
  inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens });

/** The text of a `sampling/createMessage` answer in `inputResponses`, if it is one. */
function samplingText(response: unknown): string | undefined {
  const content = (response as { content?: { type?: unknown; text?: unknown } } | undefined)?.content;
  return content?.type === 'text' && typeof content.text === 'string' ? content.text : undefined;
}

/** The root URIs of a `roots/list` answer in `inputResponses`, if it is one. */
function rootUris(response: unknown): string[] | undefined {
  const roots = (response as { roots?: unknown } | undefined)?.roots;
  return Array.isArray(roots) ? roots.map((r: { uri?: unknown }) => String(r?.uri)) : undefined;
}

const tools = [
  f
    .query('test_simple_text')
    .describe('Returns simple text')
    .handle(() => 'This is a simple text response for testing.'),
  f
    .query('test_image_content')
    .describe('Returns an image')
    .handle(() => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] })),
  f
    .query('test_audio_content')
    .describe('Returns audio')
    .handle(() => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] })),
  f
    .query('test_embedded_resource')
    .describe('Returns an embedded resource')
    .handle(() => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    })),
  f
    .query('test_multiple_content_types')
    .describe('Returns text, an image and a resource')
    .handle(() => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    })),
  f
    .query('test_tool_with_logging')
    .describe('Logs three messages while it runs')
    .handle(async (_input, _ctx, extra: HandlerExtra) => {
      await extra.log('info', 'Tool execution started');
      await sleep(50);
      await extra.log('info', 'Tool processing data');
      await sleep(50);
      await extra.log('info', 'Tool execution completed');
      return 'Tool with logging executed successfully';
    }),
  f
    .query('test_error_handling')
    .describe('Always fails')
    .handle(() => {
      throw new Error('This tool intentionally returns an error for testing');
    }),
  f
    .query('test_tool_with_progress')
    .describe('Reports progress 0, 50, 100')
    .handle(async (_input, _ctx, extra) => {
      await extra.progress(0, 100);
      await sleep(50);
      await extra.progress(50, 100);
      await sleep(50);
      await extra.progress(100, 100);
      return 'Tool with progress executed successfully';
    }),
  f
    .action('test_sampling')
    .describe('Asks the client model')
    .withString('prompt', 'The prompt to send to the LLM')
    .handle(async ({ prompt }, _ctx, extra) => {
      const result = await extra.sample({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 100,
      });
      const content = result.content as { text?: string } | undefined;
      return `LLM response: ${content?.text ?? JSON.stringify(result.content)}`;
    }),
  f
    .action('test_elicitation')
    .describe('Asks the user')
    .withString('message', 'The message to show the user')
    .handle(async ({ message }, _ctx, extra) => {
      const result = await extra.elicit({
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return `User response: action=${String(result.action)}, content=${JSON.stringify(result.content ?? {})}`;
    }),
  f
    .action('test_elicitation_sep1034_defaults')
    .describe('Elicitation with defaults')
    .handle(async (_input, _ctx, extra) => {
      const result = await extra.elicit({
        message: 'Please review and update the form fields with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
        },
      });
      return `Elicitation completed: action=${String(result.action)}, content=${JSON.stringify(result.content ?? {})}`;
    }),
  f
    .action('test_elicitation_sep1330_enums')
    .describe('Elicitation with every enum variant')
    .handle(async (_input, _ctx, extra) => {
      const result = await extra.elicit({
        message: 'Please select options from the enum fields',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: {
              type: 'string',
              description: 'Untitled single-select',
              enum: ['option1', 'option2', 'option3'],
            },
            titledSingle: {
              type: 'string',
              description: 'Titled single-select',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Legacy titled enum',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Untitled multi-select',
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Titled multi-select',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
        },
      });
      return `Elicitation completed: action=${String(result.action)}, content=${JSON.stringify(result.content ?? {})}`;
    }),
  f
    .query('json_schema_2020_12_tool')
    .describe('Tool with JSON Schema 2020-12 features')
    .input({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    })
    .handle((input) => `Received: ${JSON.stringify(input)}`),
  // Diagnostic tools of the 2026-07-28 `server-stateless` scenario.
  f
    .query('test_missing_capability')
    .describe('Needs the client to declare sampling (else -32021)')
    .handle(() =>
      inputRequired({
        inputRequests: {
          answer: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
            maxTokens: 10,
          }),
        },
      }),
    ),
  f
    .query('test_streaming_elicitation')
    .describe('Asks for a confirmation through an input_required result')
    .handle((_input, _ctx, extra) =>
      acceptedContent(extra.inputResponses, 'confirm') !== undefined
        ? 'confirmed'
        : inputRequired({
            inputRequests: { confirm: inputRequired.elicit({ message: 'Confirm?', requestedSchema: CONFIRM }) },
          }),
    ),
  f
    .query('test_logging_tool')
    .describe('Logs one message (modern requests get it only when they name a log level)')
    .handle(async (_input, _ctx, extra) => {
      await extra.log('info', 'test_logging_tool ran');
      return 'logged';
    }),
  // Multi-round-trip (input_required) tools of the 2026-07-28 scenarios; legacy sessions get the same
  // flow through the SDK's shim (real server-to-client requests).
  f
    .query('test_input_required_result_elicitation')
    .describe('Asks for a name, then greets')
    .handle((_input, _ctx, extra) => {
      const answer = acceptedContent(extra.inputResponses, 'user_name');
      if (typeof answer?.name === 'string') return `Hello, ${answer.name}!`;
      return inputRequired({ inputRequests: { user_name: askName('What is your name?') } });
    }),
  f
    .query('test_input_required_result_sampling')
    .describe('Asks the client model a question')
    .handle((_input, _ctx, extra) => {
      const reply = samplingText(extra.inputResponses?.capital_question);
      if (reply !== undefined) return `The model answered: ${reply}`;
      return inputRequired({ inputRequests: { capital_question: askModel('What is the capital of France?', 100) } });
    }),
  f
    .query('test_input_required_result_list_roots')
    .describe("Lists the client's roots")
    .handle((_input, _ctx, extra) => {
      const roots = rootUris(extra.inputResponses?.client_roots);
      if (roots !== undefined) return `Client roots: ${roots.join(', ') || '(none)'}`;
      return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
    }),
  f
    .query('test_input_required_result_request_state')
    .describe('Round-trips a sealed requestState')
    .handle(async (_input, _ctx, extra) => {
      const state = extra.requestState as { step?: string } | undefined;
      const confirmed = acceptedContent(extra.inputResponses, 'confirm');
      if (state?.step === 'confirm' && confirmed !== undefined) return `state-ok: confirmed=${String(confirmed.ok)}`;
      return inputRequired({
        inputRequests: { confirm: inputRequired.elicit({ message: 'Please confirm', requestedSchema: OK }) },
        requestState: await extra.sealState({ step: 'confirm' }),
      });
    }),
  f
    .query('test_input_required_result_multiple_inputs')
    .describe('Asks for a name, a greeting and the roots at once')
    .handle(async (_input, _ctx, extra) => {
      const name = acceptedContent(extra.inputResponses, 'user_name');
      const greeting = samplingText(extra.inputResponses?.greeting);
      const roots = rootUris(extra.inputResponses?.client_roots);
      if (
        extra.requestState !== undefined &&
        typeof name?.name === 'string' &&
        greeting !== undefined &&
        roots !== undefined
      ) {
        return `${greeting} ${name.name} (roots: ${roots.join(', ')})`;
      }
      return inputRequired({
        inputRequests: {
          user_name: askName('What is your name?'),
          greeting: askModel('Generate a greeting', 50),
          client_roots: inputRequired.listRoots(),
        },
        requestState: await extra.sealState({ round: 1 }),
      });
    }),
  f
    .query('test_input_required_result_multi_round')
    .describe('Asks two questions in two rounds')
    .handle(async (_input, _ctx, extra) => {
      const state = extra.requestState as { round?: number; name?: string } | undefined;
      if (state?.round === 2) {
        const color = acceptedContent(extra.inputResponses, 'step2');
        if (typeof color?.color === 'string') return `${state.name ?? 'You'} likes ${color.color}.`;
        return inputRequired({ inputRequests: { step2: askColor() }, requestState: await extra.sealState(state) });
      }
      const name = acceptedContent(extra.inputResponses, 'step1');
      if (state?.round === 1 && typeof name?.name === 'string') {
        return inputRequired({
          inputRequests: { step2: askColor() },
          requestState: await extra.sealState({ round: 2, name: name.name }),
        });
      }
      return inputRequired({
        inputRequests: { step1: askName('Step 1: What is your name?') },
        requestState: await extra.sealState({ round: 1 }),
      });
    }),
  f
    .query('test_input_required_result_tampered_state')
    .describe('Refuses an altered requestState')
    .handle(async (_input, _ctx, extra) => {
      if (extra.requestState !== undefined && acceptedContent(extra.inputResponses, 'confirm') !== undefined)
        return 'state verified';
      return inputRequired({
        inputRequests: { confirm: inputRequired.elicit({ message: 'Please confirm', requestedSchema: OK }) },
        requestState: await extra.sealState({ step: 'confirm' }),
      });
    }),
  f
    .query('test_input_required_result_capabilities')
    .describe('Asks only for what the client declared')
    .handle((_input, _ctx, extra) => {
      if (extra.inputResponses !== undefined && Object.keys(extra.inputResponses).length > 0) return 'thanks';
      const can = extra.clientCapabilities ?? {};
      const inputRequests: Record<string, InputRequest> = {};
      if (can.elicitation !== undefined) inputRequests.user_name = askName('What is your name?');
      if (can.sampling !== undefined) inputRequests.greeting = askModel('Generate a greeting', 50);
      if (can.roots !== undefined) inputRequests.client_roots = inputRequired.listRoots();
      return Object.keys(inputRequests).length === 0
        ? 'The client declared no capability to ask it anything.'
        : inputRequired({ inputRequests });
    }),
  // Diagnostic hook of the 2026-07-28 `server-stateless` scenario: changing the tool list at run time
  // (registry.disable/enable) announces tools/list_changed on listen streams.
  f
    .action('test_trigger_tool_change')
    .describe('Changes the tool list: shows or hides test_toggled_tool')
    .handle(() => {
      const shown = registry.isEnabled('test_toggled_tool');
      if (shown) registry.disable('test_toggled_tool');
      else registry.enable('test_toggled_tool');
      return shown ? 'test_toggled_tool is now hidden.' : 'test_toggled_tool is now listed.';
    }),
  // Diagnostic hook of `server-sse-polling` (SEP-1699): the call closes its own SSE stream, and its result
  // reaches the client on the stream it resumes with Last-Event-ID (from the app's event store).
  f
    .query('test_reconnection')
    .describe('Closes its SSE stream mid-call, then answers')
    .handle(async (_input, _ctx, extra) => {
      (extra.raw as { http?: { closeSSE?: () => void } }).http?.closeSSE?.();
      await sleep(100);
      return 'Reconnection test completed';
    }),
  // Diagnostic hook of the 2026-07-28 `server-stateless` scenario: listen streams that asked for
  // promptsListChanged hear notifications/prompts/list_changed (main.ts wires the running app in).
  f
    .action('test_trigger_prompt_change')
    .describe('Announces a change of the prompt list')
    .handle(() => {
      hooks.promptsChanged();
      return 'notifications/prompts/list_changed announced.';
    }),
  f
    .query('test_toggled_tool')
    .describe('Listed or not, as test_trigger_tool_change decides')
    .handle(() => 'here'),
];

/** A skill of the server's own (SEP-2640), with one reference file: the skills scenarios read both. */
export const guide = f
  .skill('conformance-guide')
  .describe('How to exercise the diagnostic tools of the conformance server')
  .file('references/TOOLS.md', '# Diagnostic tools\n\nEvery tool named `test_*` returns a fixed answer.\n')
  .text('# Conformance guide\n\nCall `test_simple_text` first; see references/TOOLS.md for the others.');

export const registry = f.registry().registerAll(
  ...tools,
  ...taskTools,
  guide,
  f
    .prompt('test_simple_prompt')
    .describe('A simple prompt without arguments')
    .handle(() => 'This is a simple prompt for testing.'),
  f
    .prompt('test_prompt_with_arguments')
    .describe('A prompt with two arguments')
    .argument('arg1', { description: 'First test argument', required: true })
    .argument('arg2', { description: 'Second test argument', required: true })
    .complete('arg1', (value) => ['paris', 'park', 'party', 'test', 'testValue1'].filter((v) => v.startsWith(value)))
    .complete('arg2', (value, { arguments: chosen }) =>
      [`${chosen.arg1 ?? ''}-suffix`, 'world'].filter((v) => v.startsWith(value)),
    )
    .handle(({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`),
  f
    .prompt('test_prompt_with_embedded_resource')
    .describe('A prompt embedding a resource')
    .argument('resourceUri', { description: 'URI of the resource to embed', required: true })
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
  f
    .prompt('test_prompt_with_image')
    .describe('A prompt with an image')
    .handle(() => [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      'Please analyze the image above.',
    ]),
  f
    .prompt('test_input_required_result_prompt')
    .describe('A prompt that first asks the user for context')
    .handle((_args, _ctx, extra) => {
      const answer = acceptedContent(extra.inputResponses, 'user_context');
      if (typeof answer?.context === 'string') return `Use this context: ${answer.context}`;
      return inputRequired({
        inputRequests: {
          user_context: inputRequired.elicit({
            message: 'What context should the prompt use?',
            requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
          }),
        },
      });
    }),
  f
    .resource('test://static-text')
    .name('static-text')
    .describe('A static text resource')
    .mimeType('text/plain')
    .handle(() => 'This is the content of the static text resource.'),
  f
    .resource('test://static-binary')
    .name('static-binary')
    .describe('A static binary resource (PNG)')
    .mimeType('image/png')
    .handle(() => Buffer.from(PNG, 'base64')),
  f
    .resource('test://watched-resource')
    .name('watched-resource')
    .describe('A resource clients may subscribe to')
    .mimeType('text/plain')
    .handle(() => 'Watched resource content.'),
  f
    .resourceTemplate('test://template/{id}/data')
    .name('template-data')
    .describe('Data by id')
    .mimeType('application/json')
    .complete('id', (value) => ['123', '456', '789'].filter((id) => id.startsWith(value)))
    .handle((_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` })),
);

/** Serve options of the conformance server: logging, resource subscriptions, and everything else by default. */
export const conformanceOptions: StartServerOptions<void> = {
  name: 'mcp-fusion-conformance',
  version: '1.0.0',
  logging: true,
  resourceSubscriptions: true,
};
