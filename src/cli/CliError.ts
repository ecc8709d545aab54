import { FusionError } from '../errors/FusionError.js';

/** Exit codes of the CLI: 1 for findings (lint problems), 2 for anything that stopped a command. */
export const EXIT = { ok: 0, findings: 1, failed: 2 } as const;

/** A command could not do its job; the message names the culprit and the fix. Printed without a stack. */
export class CliError extends FusionError {
  readonly exitCode: number;

  constructor(code: string, message: string, data: Record<string, unknown> = {}, exitCode: number = EXIT.failed) {
    super(code, message, data);
    this.exitCode = exitCode;
  }
}
