import { ConverterBase } from './ConverterBase.js';
import { Prompt } from './Prompt.js';
import { PromptArgument } from './PromptArgument.js';
import type { NamingOptions } from './ToolConverter.js';
import type { WirePrompt, WirePromptArgument } from './types.js';
import { compact } from './_internal/compact.js';

/**
 * {@link Prompt} ⇄ the plain `Prompt` object of `prompts/list`, arguments included. Wire prompts without
 * a name convert to null, and arguments without a name are skipped.
 * @see docs/prompts-and-resources.md
 */
export class PromptConverter extends ConverterBase<Prompt, WirePrompt> {
  readonly #qualified: boolean;

  constructor(options: NamingOptions = {}) {
    super();
    this.#qualified = options.qualifiedNames ?? false;
  }

  convertFrom(prompt: Prompt): WirePrompt {
    return {
      name: this.#qualified ? prompt.getFullyQualifiedName() : prompt.name,
      ...compact({
        title: prompt.title,
        description: prompt.description,
        arguments: prompt.arguments.length === 0 ? undefined : prompt.arguments.map(argumentToWire),
        icons: prompt.icons?.map((i) => ({ ...i })),
        _meta: prompt.meta,
      }),
    };
  }

  convertTo(wire: WirePrompt): Prompt | null {
    if (typeof wire?.name !== 'string' || wire.name.length === 0) return null;
    const args = (wire.arguments ?? []).filter((a) => typeof a?.name === 'string' && a.name.length > 0);
    return new Prompt(
      wire.name,
      compact({
        title: wire.title,
        description: wire.description,
        icons: wire.icons?.map((i) => ({ ...i })),
        meta: wire._meta,
        arguments: args.map(
          (a) => new PromptArgument(a.name, compact({ description: a.description, required: a.required })),
        ),
      }),
    );
  }
}

function argumentToWire(argument: PromptArgument): WirePromptArgument {
  return { name: argument.name, ...compact({ description: argument.description }), required: argument.required };
}
