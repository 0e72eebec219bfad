import {
  acceptCompletion,
  closeCompletion,
  completionStatus,
  moveCompletionSelection,
  selectedCompletionIndex,
  setSelectedCompletion,
  startCompletion,
} from '@codemirror/autocomplete';
import { Command, KeyBinding } from '@codemirror/view';

/** Tab takes the option moved to, or the first one when the person has not moved through the list. */
export const acceptOrFirst: Command = (view) => {
  if (completionStatus(view.state) !== 'active') return false;
  if (selectedCompletionIndex(view.state) === null) view.dispatch({ effects: setSelectedCompletion(0) });
  return acceptCompletion(view);
};

/**
 * The completion list's keys. Unlike CodeMirror's `completionKeymap`, Enter takes an option only
 * once the person has picked one with the arrow keys (the list opens with nothing picked), so
 * Enter on a query that ends in a module name still runs it.
 */
export const completionKeys: readonly KeyBinding[] = [
  { key: 'Ctrl-Space', run: startCompletion },
  { mac: 'Alt-`', run: startCompletion },
  { key: 'Escape', run: closeCompletion },
  { key: 'ArrowDown', run: moveCompletionSelection(true) },
  { key: 'ArrowUp', run: moveCompletionSelection(false) },
  { key: 'PageDown', run: moveCompletionSelection(true, 'page') },
  { key: 'PageUp', run: moveCompletionSelection(false, 'page') },
  { key: 'Enter', run: acceptCompletion },
  { key: 'Tab', run: acceptOrFirst },
];
