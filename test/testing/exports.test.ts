import { expect, it } from 'vitest';

it('mcp-fusion/testing exports exactly these names', async () => {
  expect(Object.keys(await import('../../src/testing/index.js')).sort()).toEqual([
    'TaskEndedError',
    'TaskHelperError',
    'TaskNotStartedError',
    'TaskWaitTimeoutError',
    'TranscriptMismatchError',
    'callToolAsTask',
    'cancelTask',
    'createClock',
    'createTestClient',
    'expectInvalidation',
    'getTask',
    'modernTaskEndpoint',
    'replayTranscript',
    'taskResult',
    'waitForTask',
  ]);
});
