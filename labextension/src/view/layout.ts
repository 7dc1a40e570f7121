/**
 * The view's layout controls, made once for every pane: a splitter between side-by-side panes of a row
 * (drag it, or focus it and use the arrow keys; a double click shares the row out again), a handle under
 * each row that sets the height of its panes (arrow keys too), headers of one height along a row, and a
 * maximise button in every pane header (the button again, or Escape, restores).
 *
 * The root carries `data-maximised` (the pane's name) while a pane is maximised; layout.css hides the rest.
 */
import { h } from '../dom';
import type { PaneName } from '../schema';
import type { IPaneHandle } from './context';

/** The narrowest a pane of a row gets by dragging, in pixels. */
const MIN_PANE_WIDTH = 120;

/** The lowest a row gets by dragging, in pixels. */
const MIN_ROW_HEIGHT = 80;

/** How far an arrow key moves a splitter or a height handle, in pixels. */
const KEY_STEP = 24;

/** The CSS variable that holds the height of the panes' bodies (base.css). */
const HEIGHT_VAR = '--jp-DynamoExplorer-pane-height';

/**
 * Resizing and maximising for the panes of one report view.
 */
/**
 * Drag a handle with the primary button: `start()` runs on press and returns what to do with the pointer's
 * travel since the press (dx, dy), called on every move until release; `jp-mod-dragging` marks the drag.
 */
function onDrag(el: HTMLElement, start: () => (dx: number, dy: number) => void): void {
  el.addEventListener('pointerdown', event => {
    if (event.button !== 0) {
      return;
    }
    event.preventDefault();
    const moved = start();
    const x0 = event.clientX;
    const y0 = event.clientY;
    el.setPointerCapture?.(event.pointerId);
    el.classList.add('jp-mod-dragging');
    const onMove = (e: PointerEvent): void => moved(e.clientX - x0, e.clientY - y0);
    const onUp = (): void => {
      el.classList.remove('jp-mod-dragging');
      el.removeEventListener('pointermove', onMove);
      el.removeEventListener('pointerup', onUp);
      el.removeEventListener('pointercancel', onUp);
    };
    el.addEventListener('pointermove', onMove);
    el.addEventListener('pointerup', onUp);
    el.addEventListener('pointercancel', onUp);
  });
}

export class PaneLayout {
  private _maximised: IPaneHandle | null = null;
  private readonly _buttons = new Map<IPaneHandle, HTMLButtonElement>();
  private readonly _observers: ResizeObserver[] = [];

  /**
   * Add the controls: splitters in each row of `rows`, a height handle after each row, and a maximise button
   * in the header of each pane that has one.
   */
  constructor(
    private readonly _root: HTMLElement,
    rows: readonly HTMLElement[],
    panes: readonly IPaneHandle[]
  ) {
    for (const row of rows) {
      const cells = Array.from(row.children) as HTMLElement[];
      for (let i = 1; i < cells.length; i++) {
        cells[i].before(this._splitter(row, cells[i - 1], cells[i]));
      }
      row.after(this._heightHandle(row));
      this._levelHeaders(row);
    }
    for (const pane of panes) {
      const toolbar = pane.element.querySelector(':scope > .jp-DynamoExplorer-paneTitle > .jp-DynamoExplorer-toolbar');
      if (toolbar) {
        toolbar.appendChild(this._maximiseButton(pane));
      }
    }
    _root.addEventListener('keydown', this._onKey);
  }

  /** The pane maximised now, if any. */
  get maximised(): PaneName | null {
    return this._maximised?.name ?? null;
  }

  /**
   * Maximise a pane (another one maximised is restored first).
   */
  maximise(pane: IPaneHandle): void {
    if (this._maximised === pane) {
      return;
    }
    this.restore();
    this._maximised = pane;
    pane.element.classList.add('jp-mod-maximised');
    this._root.dataset.maximised = pane.name;
    this._root.dataset.maximisedIn = pane.element.closest('.jp-DynamoExplorer-nav') ? 'nav' : 'main';
    this._setButton(pane, true);
    if (typeof pane.element.scrollIntoView === 'function') {
      pane.element.scrollIntoView({ block: 'nearest' });
    }
  }

  /**
   * Show every pane again.
   */
  restore(): void {
    const pane = this._maximised;
    if (!pane) {
      return;
    }
    this._maximised = null;
    pane.element.classList.remove('jp-mod-maximised');
    delete this._root.dataset.maximised;
    delete this._root.dataset.maximisedIn;
    this._setButton(pane, false);
  }

  /**
   * Make sure a pane is visible: restore the view when another pane is maximised (navigation calls it).
   */
  reveal(name: PaneName): void {
    if (this._maximised && this._maximised.name !== name) {
      this.restore();
    }
  }

  /**
   * Stop listening to the page.
   */
  dispose(): void {
    this._root.removeEventListener('keydown', this._onKey);
    for (const observer of this._observers) {
      observer.disconnect();
    }
  }

  private readonly _onKey = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && this._maximised) {
      const pane = this._maximised;
      event.preventDefault();
      event.stopPropagation();
      this.restore();
      this._buttons.get(pane)?.focus();
    }
  };

  private _maximiseButton(pane: IPaneHandle): HTMLButtonElement {
    const btn = h('button', { class: 'jp-DynamoExplorer-maximise', data: { action: 'maximise' } });
    btn.type = 'button';
    btn.addEventListener('click', () => {
      if (this._maximised === pane) {
        this.restore();
      } else {
        this.maximise(pane);
      }
    });
    this._buttons.set(pane, btn);
    this._setButton(pane, false);
    return btn;
  }

  private _setButton(pane: IPaneHandle, maximised: boolean): void {
    const btn = this._buttons.get(pane);
    if (!btn) {
      return;
    }
    btn.textContent = maximised ? '⤡' : '⤢';
    btn.title = maximised ? 'Restore the panes (Escape)' : 'Maximise this pane';
    btn.setAttribute('aria-label', maximised ? 'Restore the panes' : 'Maximise this pane');
    btn.setAttribute('aria-pressed', String(maximised));
  }

  /**
   * Keep the headers of the panes side by side in a row one height (a toolbar that wraps makes its header
   * taller), so that their bodies start level: the bytecode rows of one line then line up across panes.
   * Panes the row wrapped onto another line (a narrow explorer) are levelled with their own line.
   */
  private _levelHeaders(row: HTMLElement): void {
    if (typeof ResizeObserver === 'undefined') {
      return;
    }
    const headers = Array.from(
      row.querySelectorAll<HTMLElement>(':scope > .jp-DynamoExplorer-pane > .jp-DynamoExplorer-paneTitle')
    );
    const level = (): void => {
      for (const header of headers) {
        header.style.minHeight = '';
      }
      const boxes = headers.map(header => header.getBoundingClientRect());
      headers.forEach((header, i) => {
        const line = boxes.filter(box => box.height > 0 && Math.abs(box.top - boxes[i].top) < 2);
        const tallest = Math.max(0, ...line.map(box => box.height));
        header.style.minHeight = tallest > boxes[i].height ? `${tallest}px` : '';
      });
    };
    let pending = false;
    // Levelled in the next frame, not in the observer's callback (which would resize what it observes).
    const observer = new ResizeObserver(() => {
      if (!pending) {
        pending = true;
        requestAnimationFrame(() => {
          pending = false;
          level();
        });
      }
    });
    for (const header of headers) {
      observer.observe(header);
    }
    this._observers.push(observer);
  }

  /** A splitter between two panes of a row: it moves width from one to the other. */
  private _splitter(row: HTMLElement, left: HTMLElement, right: HTMLElement): HTMLElement {
    const el = h('div', {
      class: 'jp-DynamoExplorer-splitter',
      title: 'Drag to resize the panes (double click: share the row out again)',
      data: { after: left.dataset.pane ?? '' },
      attrs: { role: 'separator', 'aria-orientation': 'vertical', tabindex: '0', 'aria-label': 'Resize the panes' }
    });
    const panes = (): HTMLElement[] =>
      Array.from(row.children).filter(c => c.classList.contains('jp-DynamoExplorer-pane')) as HTMLElement[];
    /** Move `dx` pixels from the right pane to the left one; every pane of the row keeps its width in pixels. */
    const move = (widths: Map<HTMLElement, number>, dx: number): void => {
      const total = widths.get(left)! + widths.get(right)!;
      const wl = Math.min(Math.max(widths.get(left)! + dx, MIN_PANE_WIDTH), total - MIN_PANE_WIDTH);
      for (const [pane, width] of widths) {
        const w = pane === left ? wl : pane === right ? total - wl : width;
        pane.style.flexGrow = String(Math.max(w, 1));
      }
      el.setAttribute('aria-valuenow', String(Math.round((100 * wl) / Math.max(total, 1))));
    };
    const measure = (): Map<HTMLElement, number> =>
      new Map(panes().map(pane => [pane, pane.getBoundingClientRect().width]));
    onDrag(el, () => {
      const widths = measure();
      return (dx: number) => move(widths, dx);
    });
    el.addEventListener('keydown', event => {
      const dx = event.key === 'ArrowLeft' ? -KEY_STEP : event.key === 'ArrowRight' ? KEY_STEP : 0;
      if (dx !== 0) {
        event.preventDefault();
        move(measure(), dx);
      }
    });
    el.addEventListener('dblclick', () => {
      for (const pane of panes()) {
        pane.style.flexGrow = '';
      }
      el.removeAttribute('aria-valuenow');
    });
    return el;
  }

  /** A handle under a row: dragging it sets the height of the row's pane bodies. */
  private _heightHandle(row: HTMLElement): HTMLElement {
    const el = h('div', {
      class: 'jp-DynamoExplorer-heightHandle',
      title: 'Drag to change the height of these panes (double click: back to the default)',
      attrs: { role: 'separator', 'aria-orientation': 'horizontal', tabindex: '0', 'aria-label': 'Resize the height' }
    });
    const bodies = (): HTMLElement[] => Array.from(row.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-paneBody'));
    const current = (): number => Math.max(0, ...bodies().map(b => b.getBoundingClientRect().height));
    const set = (height: number): void => {
      const value = Math.max(MIN_ROW_HEIGHT, Math.round(height));
      row.style.setProperty(HEIGHT_VAR, `${value}px`);
      row.classList.add('jp-mod-sized');
      el.setAttribute('aria-valuenow', String(value));
    };
    onDrag(el, () => {
      const h0 = current();
      return (_dx: number, dy: number) => set(h0 + dy);
    });
    el.addEventListener('keydown', event => {
      const dy = event.key === 'ArrowUp' ? -KEY_STEP : event.key === 'ArrowDown' ? KEY_STEP : 0;
      if (dy !== 0) {
        event.preventDefault();
        set(current() + dy);
      }
    });
    el.addEventListener('dblclick', () => {
      row.style.removeProperty(HEIGHT_VAR);
      row.classList.remove('jp-mod-sized');
      el.removeAttribute('aria-valuenow');
    });
    return el;
  }
}
