import { DefinitionError } from '../errors/FusionError.js';
import type { ModelOptions } from './BaseModel.js';
import { GroupItem } from './GroupItem.js';
import type { PromptArgument } from './PromptArgument.js';

/** What a {@link Prompt} accepts besides its name. */
export interface PromptOptions extends ModelOptions {
  arguments?: PromptArgument[];
}

/**
 * A prompt in the domain model: a named message template with string arguments.
 * Convert it to what `prompts/list` shows with {@link PromptConverter}.
 * @see docs/prompts-and-resources.md
 */
export class Prompt extends GroupItem {
  readonly kind = 'prompt' as const;
  readonly #arguments: PromptArgument[] = [];

  constructor(name: string, options: PromptOptions = {}) {
    super(name, options);
    for (const argument of options.arguments ?? []) this.addArgument(argument);
  }

  /** The arguments in declaration order. */
  get arguments(): readonly PromptArgument[] {
    return this.#arguments;
  }

  /** Appends an argument; a second argument with the same name throws. */
  addArgument(argument: PromptArgument): this {
    if (this.getArgument(argument.name) !== undefined) {
      throw new DefinitionError(
        'PROMPT_ARGUMENT',
        `Prompt "${this.name}" already has an argument "${argument.name}"; give the new one another name.`,
        { prompt: this.name, argument: argument.name },
      );
    }
    this.#arguments.push(argument);
    return this;
  }

  /** Removes the argument named `name`; false when there is none. */
  removeArgument(name: string): boolean {
    const at = this.#arguments.findIndex((a) => a.name === name);
    if (at === -1) return false;
    this.#arguments.splice(at, 1);
    return true;
  }

  getArgument(name: string): PromptArgument | undefined {
    return this.#arguments.find((a) => a.name === name);
  }
}
