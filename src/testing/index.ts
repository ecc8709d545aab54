// mcp-fusion/testing — drive a registry through a real SDK Client in-process.
export { createTestClient, type CallOutcome, type TestClient, type TestClientOptions } from './createTestClient.js';
export { expectInvalidation, type InvalidationInfo, type InvalidationSubject } from './expectInvalidation.js';
export { createClock, type Clock } from './createClock.js';
export {
  replayTranscript,
  TranscriptMismatchError,
  type ReplayReport,
  type Transcript,
  type TranscriptStep,
} from './replayTranscript.js';
