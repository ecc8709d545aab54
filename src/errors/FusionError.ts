/**
 * Base class of every configuration error mcp-fusion throws at build or attach time.
 * `code` is stable and machine-readable; `data` names the culprit.
 */
export class FusionError extends Error {
  readonly code: string;
  readonly data: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.data = Object.freeze({ ...data });
  }
}

/** A tool, policy or machine definition is invalid; the message says which and how to fix it. */
export class DefinitionError extends FusionError {}

/** A built (frozen) builder was changed after it was built. */
export class FrozenBuilderError extends FusionError {}

/** Attaching a registry to a server failed (unknown server shape, duplicate attach options…). */
export class AttachError extends FusionError {}

/** An optional peer dependency (xstate, ioredis, @toon-format/toon, the v1 SDK) could not be loaded. */
export class MissingPeerError extends FusionError {}

/** `startServer()` could not listen (the port is in use or needs privileges); the message names the port and the fix. */
export class ServerStartError extends FusionError {
  constructor(message: string, cause?: unknown) {
    super('SERVER_START', message, { cause: (cause as { code?: unknown } | undefined)?.code });
  }
}
