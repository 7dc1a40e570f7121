/**
 * DOM helpers for the renderer: `h()` builds elements with createElement and textContent only.
 *
 * Nothing in this package assigns innerHTML: every string from the report reaches the page as a text node
 * or an attribute value, so a report cannot inject markup or script.
 */

/** A child accepted by `h()`: nodes are appended, strings become text nodes, falsy values are skipped. */
export type Child = Node | string | null | undefined | false;

/** Options of `h()`. */
export interface IProps {
  /** Space-separated class names. */
  class?: string;
  /** Text content (set with textContent). */
  text?: string;
  /** Tooltip. */
  title?: string;
  /** data-* attributes, keys without the `data-` prefix. */
  data?: Record<string, string>;
  /** Other attributes (never event handlers). */
  attrs?: Record<string, string>;
  /** Click handler. */
  onclick?: (event: MouseEvent) => void;
}

/**
 * Create an element.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: IProps = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) {
    el.className = props.class;
  }
  if (props.text !== undefined) {
    el.textContent = props.text;
  }
  if (props.title !== undefined) {
    el.title = props.title;
  }
  if (props.data) {
    for (const [key, value] of Object.entries(props.data)) {
      el.dataset[key] = value;
    }
  }
  if (props.attrs) {
    for (const [key, value] of Object.entries(props.attrs)) {
      if (/^on/i.test(key)) {
        throw new Error(`h(): event attribute ${key} is not allowed; use onclick`);
      }
      el.setAttribute(key, value);
    }
  }
  if (props.onclick) {
    const onclick = props.onclick;
    el.addEventListener('click', event => onclick(event as MouseEvent));
  }
  append(el, ...children);
  return el;
}

/**
 * Append children (strings become text nodes).
 */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/**
 * Remove every child of an element.
 */
export function clear(el: Element): void {
  while (el.firstChild) {
    el.removeChild(el.firstChild);
  }
}

/**
 * A button that does not submit anything.
 */
export function button(label: string, onclick: (event: MouseEvent) => void, props: IProps = {}): HTMLButtonElement {
  const el = h('button', { ...props, text: label, onclick });
  el.type = 'button';
  return el;
}

/**
 * A link to an external page; only http(s) URLs become links, anything else is shown as text.
 */
export function externalLink(url: string | null | undefined, label: string): HTMLElement {
  if (url && /^https?:\/\//i.test(url)) {
    const a = h('a', { text: label, attrs: { target: '_blank', rel: 'noopener noreferrer' } });
    a.href = url;
    return a;
  }
  return h('span', { text: url ? `${label}: ${url}` : label });
}

/**
 * Format seconds for people: 0.042 s -> '42 ms', 3.2 -> '3.20 s'.
 */
export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !isFinite(seconds)) {
    return '–';
  }
  if (seconds < 1) {
    return `${Math.round(seconds * 1000)} ms`;
  }
  return `${seconds.toFixed(2)} s`;
}

/**
 * English plural: plural(2, 'frame') -> '2 frames'.
 */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
