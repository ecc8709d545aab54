export { createPresenter, PresenterBuilder } from './PresenterBuilder.js';
export { presentResult } from './presentResult.js';
export type { PresentOptions, Presenter, SuggestActions, SuggestedAction } from './types.js';
