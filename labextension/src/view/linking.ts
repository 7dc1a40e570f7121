/**
 * Line linking, as Compiler Explorer does it: rows about one source line share a key and a colour.
 *
 * Panes register rows (source lines, bytecode rows, FX nodes in the SVG) under a line key. Hovering any
 * registered row adds `jp-mod-linked` to every row of the same key, in every pane of the same report.
 */

/** CSS class on linked rows while one of them is hovered. */
export const LINKED_CLASS = 'jp-mod-linked';

/** Number of line colours in the stylesheet (jp-DynamoExplorer-lc0 ... lc7). */
export const LINE_COLOURS = 8;

/**
 * The colour class of a source line.
 */
export function lineColourClass(line: number): string {
  return `jp-DynamoExplorer-lc${((line % LINE_COLOURS) + LINE_COLOURS) % LINE_COLOURS}`;
}

/**
 * Registry of linked rows for one rendered report.
 */
export class LineLinker {
  private readonly _rows = new Map<string, Map<string, Element[]>>();
  private _active: string | null = null;
  private readonly _root: HTMLElement;

  /**
   * Listen for hovers below `root`.
   */
  constructor(root: HTMLElement) {
    this._root = root;
    root.addEventListener('mouseover', this._onOver);
    root.addEventListener('mouseleave', this._onLeave);
  }

  /**
   * Register a row; `group` is the pane that owns it (cleared when the pane redraws).
   */
  register(group: string, el: Element, key: string | null): void {
    if (!key) {
      return;
    }
    el.setAttribute('data-line-key', key);
    let rows = this._rows.get(group);
    if (!rows) {
      rows = new Map();
      this._rows.set(group, rows);
    }
    const list = rows.get(key);
    if (list) {
      list.push(el);
    } else {
      rows.set(key, [el]);
    }
  }

  /**
   * Forget the rows of one pane.
   */
  clearGroup(group: string): void {
    if (this._active) {
      this._set(this._active, false);
    }
    this._rows.delete(group);
    this._active = null;
  }

  /**
   * Rows registered under a key, in all panes.
   */
  rowsFor(key: string): Element[] {
    const out: Element[] = [];
    for (const rows of this._rows.values()) {
      const list = rows.get(key);
      if (list) {
        out.push(...list);
      }
    }
    return out;
  }

  /**
   * Highlight the rows of `key` (null: none).
   */
  activate(key: string | null): void {
    if (key === this._active) {
      return;
    }
    if (this._active) {
      this._set(this._active, false);
    }
    this._active = key;
    if (key) {
      this._set(key, true);
    }
  }

  /** The key highlighted now. */
  get active(): string | null {
    return this._active;
  }

  /**
   * Stop listening.
   */
  dispose(): void {
    this._root.removeEventListener('mouseover', this._onOver);
    this._root.removeEventListener('mouseleave', this._onLeave);
    this._rows.clear();
  }

  private _set(key: string, on: boolean): void {
    for (const el of this.rowsFor(key)) {
      el.classList.toggle(LINKED_CLASS, on);
    }
  }

  private readonly _onOver = (event: Event): void => {
    const target = event.target as Element | null;
    const row = target && typeof target.closest === 'function' ? target.closest('[data-line-key]') : null;
    this.activate(row ? row.getAttribute('data-line-key') : null);
  };

  private readonly _onLeave = (): void => {
    this.activate(null);
  };
}
