// mcp-fusion/testing — drive a registry through a real SDK Client in-process.
export { createTestClient, type CallOutcome, type TestClient, type TestClientOptions } from './createTestClient.js';
export { expectInvalidation, type InvalidationInfo, type InvalidationSubject } from './expectInvalidation.js';
export { createClock, type TestClock } from './createClock.js';
export {
  replayTranscript,
  TranscriptMismatchError,
  type ReplayReport,
  type Transcript,
  type TranscriptStep,
} from './replayTranscript.js';
export {
  callToolAsTask,
  cancelTask,
  getTask,
  taskResult,
  waitForTask,
  type CallToolAsTaskOptions,
  type WaitForTaskOptions,
} from './taskHelpers.js';
export { modernTaskEndpoint, type ModernTaskEndpointOptions } from './modernTaskEndpoint.js';
export type { TaskChannel, TaskTarget } from './taskChannel.js';
export type { TaskError, TaskRef, TaskSnapshot, TaskStatus } from './taskSnapshot.js';
export { TaskEndedError, TaskHelperError, TaskNotStartedError, TaskWaitTimeoutError } from './taskErrors.js';
