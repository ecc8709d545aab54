// mcp-fusion/testing — drive a registry through a real SDK Client in-process.
export { createTestClient, type TestClient } from './createTestClient.js';
