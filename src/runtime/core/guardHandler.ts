import { JsonRpcCode, WireError } from '../../errors/WireError.js';
import { contentMessages as messages } from '../../protocol/contentMessages.js';

/** Runs a handler; errors carrying a JSON-RPC error code (-32768 to -32000) pass through, others become -32603 naming `label`. */
export async function guardHandler<T>(
  label: string,
  run: () => Promise<T>,
  describe: (error: unknown) => string = (e) => messages.handlerFailed(label, e),
  failed?: (error: unknown) => void,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof WireError || isJsonRpcCode((error as { code?: unknown } | null)?.code)) throw error;
    failed?.(error);
    throw new WireError(JsonRpcCode.InternalError, describe(error));
  }
}

function isJsonRpcCode(code: unknown): boolean {
  return Number.isInteger(code) && (code as number) >= -32768 && (code as number) <= -32000;
}
