import { BaseModel, type ModelOptions } from './BaseModel.js';

/** What a {@link PromptArgument} accepts besides its name. */
export interface PromptArgumentOptions extends ModelOptions {
  /** The client must supply it (default false). */
  required?: boolean;
}

/**
 * One named string argument of a {@link Prompt}.
 * @see docs/prompts-and-resources.md
 */
export class PromptArgument extends BaseModel {
  required: boolean;

  constructor(name: string, options: PromptArgumentOptions = {}) {
    super(name, options);
    this.required = options.required ?? false;
  }

  /** An argument is named only within its prompt. */
  getFullyQualifiedName(): string {
    return this.name;
  }
}
