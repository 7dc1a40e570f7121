/**
 * The frame of every pane: a titled section with `data-pane`, a toolbar and a body, plus empty states.
 */
import { h } from '../dom';

/** Names of the panes (the `data-pane` attribute the browser tests select on). */
export type PaneName =
  | 'header'
  | 'frames'
  | 'source'
  | 'original-bytecode'
  | 'modified-bytecode'
  | 'guards'
  | 'graph-breaks'
  | 'fx-graph'
  | 'code';

/** The parts of a pane. */
export interface IPaneShell {
  element: HTMLElement;
  title: HTMLElement;
  toolbar: HTMLElement;
  body: HTMLElement;
}

/**
 * Build an empty pane.
 */
export function paneShell(name: PaneName, title: string): IPaneShell {
  const titleEl = h('span', { class: 'jp-DynamoExplorer-paneTitleText', text: title });
  const toolbar = h('span', { class: 'jp-DynamoExplorer-toolbar' });
  const body = h('div', { class: 'jp-DynamoExplorer-paneBody' });
  const element = h(
    'section',
    { class: `jp-DynamoExplorer-pane jp-DynamoExplorer-pane-${name}`, data: { pane: name } },
    h('header', { class: 'jp-DynamoExplorer-paneTitle' }, titleEl, toolbar),
    body
  );
  return { element, title: titleEl, toolbar, body };
}

/**
 * A placeholder text for a pane with nothing to show ('<no bytecode>', as Compiler Explorer writes it).
 */
export function emptyState(text: string): HTMLElement {
  return h('div', { class: 'jp-DynamoExplorer-empty', text });
}

/**
 * A segmented toggle: one button per choice, `jp-mod-selected` on the chosen one.
 */
export function toggle<T extends string>(
  choices: Array<[T, string]>,
  initial: T,
  onChange: (value: T) => void
): { element: HTMLElement; set: (value: T) => void } {
  const buttons = new Map<T, HTMLButtonElement>();
  const set = (value: T): void => {
    for (const [key, btn] of buttons) {
      btn.classList.toggle('jp-mod-selected', key === value);
      btn.setAttribute('aria-pressed', String(key === value));
    }
  };
  const element = h('span', { class: 'jp-DynamoExplorer-toggle' });
  for (const [value, label] of choices) {
    const btn = h('button', { text: label, data: { value } });
    btn.type = 'button';
    btn.addEventListener('click', () => {
      set(value);
      onChange(value);
    });
    buttons.set(value, btn);
    element.appendChild(btn);
  }
  set(initial);
  return { element, set };
}
