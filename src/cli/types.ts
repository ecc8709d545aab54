/** Somewhere the CLI writes text: `process.stdout`, or a buffer in tests. */
export interface TextSink {
  write(text: string): unknown;
  /** True when a person is watching (progress redraws in place); absent means false. */
  readonly isTTY?: boolean;
}

/** Everything a command may touch of the outside world, injected so that tests can run commands in-process. */
export interface CliIo {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  /** Relative paths in arguments resolve against this directory. */
  readonly cwd: string;
  /** Environment of child processes (`npm install`). */
  readonly env: Readonly<Record<string, string | undefined>>;
}
