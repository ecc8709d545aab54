import { initFusion } from '../../src/index.js';

/** Tools that keep a locale in `extra.session`, and one that stores a blob of a given size. */
const f = initFusion();
export const prefsRegistry = f.registry().registerAll(
  f
    .action('prefs.set')
    .withString('locale')
    .handle(async (input, _ctx, extra) => {
      await extra.session!.set('locale', input.locale);
      return `saved ${input.locale}`;
    }),
  f
    .query('prefs.get')
    .handle(
      async (_input, _ctx, extra) =>
        `locale=${(await extra.session!.get<string>('locale')) ?? 'unset'} key=${extra.session!.key}`,
    ),
  f
    .action('prefs.big')
    .withNumber('bytes')
    .handle(async (input, _ctx, extra) => {
      await extra.session!.set('blob', 'x'.repeat(input.bytes));
      return 'stored';
    }),
);
